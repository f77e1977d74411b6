import type { RouteDefinition } from "@compliance-graph/process-shell";
import { receiptJwksPath, type ReceiptSigner } from "../receipts/receipt-signer.js";

/**
 * `GET /.well-known/aopd-receipt-keys.json`: the public keys receipts are verified with, for
 * anyone (an auditor, another provider) without a token: they are public by design, and a
 * verifier that needed our token to check our word would defeat the purpose. The gateway serves
 * it at the same path (subgraph-routes.yaml, `public: true`). Only public key parts are in it
 * (receipt-signing-keys.ts). Cached for 5 minutes; a
 * verifier meeting an unknown `kid` fetches the set again (jose's remote key set does).
 */
export function receiptJwksRoute(signer: ReceiptSigner): RouteDefinition<never> {
  const handle: RouteDefinition<never>["handle"] = ({ request, response }) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD", "content-type": "application/json" });
      response.end(
        JSON.stringify({ error: "method_not_allowed", reason: `${request.method ?? "This method"} is not allowed at ${receiptJwksPath}; use GET.` }),
      );
      return;
    }
    response.writeHead(200, {
      "content-type": "application/jwk-set+json",
      "cache-control": "public, max-age=300",
      "x-content-type-options": "nosniff",
      "content-length": Buffer.byteLength(signer.jwksJson),
    });
    response.end(request.method === "HEAD" ? undefined : signer.jwksJson);
  };
  return { path: receiptJwksPath, access: "public", handle };
}
