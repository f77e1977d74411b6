import { describe, expect, it } from "vitest";
import { portalContactFrom } from "../../src/portal/portal-contact-from.js";

describe("AOPD_PORTAL_CONTACT", () => {
  it("takes an e-mail address, with or without mailto:, and an https URL", () => {
    expect(portalContactFrom("support@vasp.example", true)).toEqual({ kind: "email", href: "mailto:support@vasp.example", label: "support@vasp.example" });
    expect(portalContactFrom("mailto:support@vasp.example", true)).toEqual({
      kind: "email",
      href: "mailto:support@vasp.example",
      label: "support@vasp.example",
    });
    expect(portalContactFrom("https://vasp.example/support", true)).toEqual({
      kind: "url",
      href: "https://vasp.example/support",
      label: "https://vasp.example/support",
    });
    expect(portalContactFrom(undefined, true)).toBeNull();
    expect(portalContactFrom("  ", true)).toBeNull();
  });

  it("refuses what the page must not turn into a link, naming what is allowed", () => {
    for (const value of ["javascript:alert(1)", "data:text/html,hi", "ftp://vasp.example", "https://user:secret@vasp.example/", "not a contact"]) {
      expect(() => portalContactFrom(value, false), value).toThrow(
        /AOPD_PORTAL_CONTACT must be an e-mail address \(support@vasp\.example\) or an http\(s\) URL/,
      );
    }
  });

  it("refuses a plain http URL in production and allows it in development", () => {
    expect(() => portalContactFrom("http://vasp.example/support", true)).toThrow(/or an https URL/);
    expect(portalContactFrom("http://localhost:8080/support", false)?.kind).toBe("url");
  });
});
