import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { promisify } from "node:util";
import { fetchToken, launchBrowser } from "@compliance-graph/test-kit";
import { playStack, podNameOf, removeStack, stackDoor, stackIssuer, stackPortTaken, stopStack, waitUntilServing } from "../stack/pod-stack.js";

/**
 * `npm run test:deploy`'s check of the stack Pod (deploy/stack/stack.yaml) as `npm run stack:pod` plays it, with the
 * images build-images.sh made and the stand-ins of build-test-service-images.sh for the official PostgreSQL and
 * HAProxy images, under names of its own (its database and Secret are its own, removed at the end). It checks that
 * every image's HEALTHCHECK passes in its running container (kube play runs the Pod's probes instead) and that the
 * gateway's image holds no oidc-provider; then, through the door only: the registry's history holds aopd and trpd as
 * their publisher containers published them (the gateways list no subgraph), reads reach both subgraphs through both
 * gateways, a write lands in the PostgreSQL container, the customer's portal page, the console and the receipt keys
 * (one key, whichever aopd answers) are served, an officer signs in to the console in Chromium and sees that proof,
 * anything else is refused; the proof is still there after the stack is stopped and played again; with one aopd and one gateway killed the
 * door still answers. Ctrl-C or SIGTERM still removes what it made.
 *
 * Usage: node --import tsx deploy/podman/stack-check.ts   (the stack's ports, 4000 and 4080, must be free)
 * IMAGE_TAG (default test), POSTGRES_IMAGE, HAPROXY_IMAGE.
 */
const run = promisify(execFile);
const podman = async (args: string[]) => (await run("podman", args, { timeout: 120_000 })).stdout.trim();
const options = {
  suffix: "-check",
  imageTag: process.env.IMAGE_TAG ?? "test",
  ...(process.env.POSTGRES_IMAGE ? { postgresImage: process.env.POSTGRES_IMAGE } : {}),
  ...(process.env.HAPROXY_IMAGE ? { haproxyImage: process.env.HAPROXY_IMAGE } : {}),
};
const pod = podNameOf(options);

const taken = await stackPortTaken();
if (taken) {
  console.error(`stack check: ${taken}`);
  process.exit(1);
}

let removing: Promise<void> | undefined;
const remove = () => (removing ??= removeStack(options).catch((error: unknown) => console.error(`stack check: remove: ${(error as Error).message}`)));
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void remove().then(() => process.exit(1)));

const check = (what: string, ok: boolean, seen: unknown) => {
  if (!ok) throw new Error(`stack check: ${what}; seen ${JSON.stringify(seen)}`);
  console.log(`stack check: ${what}`);
};

const started = Date.now();
try {
  await playStack(options);
  await waitUntilServing();
  console.log(`stack check: the door answered ${Math.round((Date.now() - started) / 1000)} s after kube play`);

  const containers = (await podman(["ps", "--filter", `pod=${pod}`, "--format", "{{.Names}}"])).split("\n").filter((name) => name.startsWith(`${pod}-`));
  check("twelve containers running", containers.length === 12, containers);
  for (const container of containers) {
    if (container.endsWith("-postgres") || container.endsWith("-balancer")) continue; // the official images' (none for HAProxy)
    // kube play gives a container the Pod's probes, not its image's HEALTHCHECK, and podman runs one on schedule only
    // with systemd's timers: so the image's HEALTHCHECK command is run in the running container, as Docker would.
    const image = await podman(["inspect", "--format", "{{.ImageName}}", container]);
    const healthcheck = JSON.parse(await podman(["image", "inspect", "--format", "{{json .Config.Healthcheck}}", image])) as { Test?: string[] } | null;
    check(`${image} has a HEALTHCHECK`, healthcheck?.Test?.[0] === "CMD", healthcheck);
    const outcome = await run("podman", ["exec", container, ...healthcheck!.Test!.slice(1)], { timeout: 60_000 }).then(
      () => "healthy",
      (error: { stdout?: string; stderr?: string; message: string }) => `${error.stdout ?? ""}${error.stderr ?? ""}`.trim() || error.message,
    );
    check(`${container}: its image's HEALTHCHECK passes`, outcome === "healthy", outcome);
  }

  const leftover = await run("podman", [
    "exec",
    `${pod}-gateway-1`,
    "node",
    "-e",
    "import('oidc-provider').then(() => process.exit(1), () => process.exit(0))",
  ]).then(
    () => "none",
    () => "oidc-provider",
  );
  check("the gateway's image holds no development identity provider", leftover === "none", leftover);

  const token = await fetchToken(`${stackIssuer}/protocol/openid-connect/token`, "dev-api-client", "dev-secret");
  const post = async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(`${stackDoor}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(30_000),
    });
    return (await response.json()) as { data?: { aopd?: Record<string, unknown>; trpd?: { vasps?: unknown } }; errors?: unknown[] };
  };
  // The gateways list no subgraph: aopd and trpd are in the registry as their publishers put them, through the door.
  const history = (await fetch(`${stackDoor}/registry/subgraphs/history`, { headers: { authorization: `Bearer ${token}` } }).then((response) =>
    response.json(),
  )) as { versions?: { subgraph: string; action: string; client: string }[] };
  const published = new Set((history.versions ?? []).filter((entry) => entry.action === "publish").map((entry) => `${entry.subgraph} by ${entry.client}`));
  check(
    "the registry's history, read through the door, holds aopd and trpd as their publishers' client published them",
    published.has("aopd by compliance-graph-publisher") && published.has("trpd by compliance-graph-publisher"),
    history,
  );
  // Round robin: four reads reach both gateways twice.
  for (let index = 0; index < 4; index++) {
    const answer = await post("{ aopd { proofsCount } trpd { vasps { name } } }");
    check(
      `read ${index + 1} answered by both subgraphs`,
      answer.errors === undefined && typeof answer.data?.aopd?.proofsCount === "number" && Array.isArray(answer.data?.trpd?.vasps),
      answer,
    );
  }
  const written = await post(
    "mutation Write($input: AopdRequestAoppProofInput!, $key: String) { aopd { requestAoppProof(input: $input, idempotencyKey: $key) { proof { id } portalUrl } } }",
    { input: { customerId: "STACK-CHECK-1", asset: "DTI4H95J0R2X" }, key: randomUUID() },
  );
  const request = written.data?.aopd?.requestAoppProof as { proof: { id: string }; portalUrl: string } | undefined;
  check("a proof requested through the door", request !== undefined, written);

  const stored = await podman([
    "exec",
    `${pod}-postgres`,
    "psql",
    "-U",
    "postgres",
    "-d",
    "aopd",
    "-tAc",
    `SELECT customer_id FROM aopd_proof WHERE id = '${request!.proof.id}'`,
  ]);
  check("the proof is in the PostgreSQL container", stored === "STACK-CHECK-1", stored);

  const portalPath = new URL(request!.portalUrl).pathname;
  const portal = await fetch(`${stackDoor}${portalPath}`);
  check(
    "the customer's portal page is served at its portalUrl",
    portal.ok && (portal.headers.get("content-type") ?? "").startsWith("text/html"),
    portal.status,
  );
  const consoleConfig = (await fetch(`${stackDoor}/console/config.json`).then((response) => response.json())) as { issuer?: string };
  check("the console is served with the stack's issuer", consoleConfig.issuer === stackIssuer, consoleConfig);
  // The one issuer URL at work: the browser signs in at the identity provider the gateways verify tokens of.
  const browser = await launchBrowser();
  try {
    const page = await (await browser.newContext({ locale: "en-US" })).newPage();
    await page.goto("http://localhost:4000/console/");
    await page.getByLabel("Username").fill("demo-officer", { timeout: 60_000 });
    await page.getByLabel("Password").fill("demo-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    const shown = await page
      .getByRole("cell", { name: "STACK-CHECK-1" })
      .first()
      .waitFor({ timeout: 60_000 })
      .then(
        () => true,
        async (error: Error) => {
          mkdirSync("test-artifacts", { recursive: true });
          await page.screenshot({ path: "test-artifacts/stack-check-console.png" }).catch(() => undefined);
          return `${error.message.split("\n")[0]} at ${page.url()} (test-artifacts/stack-check-console.png)`;
        },
      );
    check("an officer signs in to the console in Chromium and sees the proof in the overview", shown === true, shown);
  } finally {
    await browser.close();
  }
  const receiptKids = new Set<string>();
  for (let index = 0; index < 4; index++) {
    const keys = (await fetch(`${stackDoor}/.well-known/aopd-receipt-keys.json`).then((response) => response.json())) as { keys: { kid: string }[] };
    receiptKids.add(keys.keys.map((key) => key.kid).join(","));
  }
  check("the receipt keys are one key, whichever aopd answers", receiptKids.size === 1 && [...receiptKids][0]!.startsWith("stack-"), [...receiptKids]);
  check("anything else at the door is refused", (await fetch(`${stackDoor}/metrics`)).status === 404, "");

  // `npm run stack:pod -- down`, then up again: the database volume is kept and mounted again.
  await stopStack(options);
  await playStack(options);
  await waitUntilServing();
  // The token taken before `down`: the identity provider's signing key is the Secret's, kept.
  const again = await post("{ aopd { proofsCount } }");
  check("the proof and the token taken before outlive the stack's down and a new play", again.data?.aopd?.proofsCount === 1, again);

  // A killed replica's connections fail and go to the other one; the balancer's checks take it out within 2 s.
  await podman(["kill", "--signal", "KILL", `${pod}-aopd-1`]);
  await podman(["kill", "--signal", "KILL", `${pod}-gateway-2`]);
  for (let index = 0; index < 4; index++) {
    const answer = await post("{ aopd { proofsCount } }");
    check(`read ${index + 1} with aopd-1 and gateway-2 killed`, answer.data?.aopd?.proofsCount === 1, answer);
  }
} catch (error) {
  // What each container was doing, so that a failure says why.
  const states = await podman(["ps", "--all", "--filter", `pod=${pod}`, "--format", "{{.Names}} {{.Status}}"]).catch(() => "");
  console.error(`stack check: the Pod's containers:\n${states}`);
  for (const line of states.split("\n").filter((entry) => entry.startsWith(`${pod}-`))) {
    const name = line.split(" ")[0]!;
    console.error(
      `stack check: ${name}'s last log lines:\n${await podman(["logs", "--tail", "8", name]).catch((reason: unknown) => (reason as Error).message)}`,
    );
  }
  throw error;
} finally {
  await remove();
  const left = await podman(["ps", "--all", "--filter", `pod=${pod}`, "--format", "{{.Names}}"]);
  const volumes = await podman(["volume", "ls", "--format", "{{.Name}}", "--filter", `name=compliance-graph-stack-.*${options.suffix}`]);
  if (left || volumes) {
    console.error(`stack check: removing left containers ${JSON.stringify(left)} and volumes ${JSON.stringify(volumes)}`);
    process.exitCode = 1;
  }
}
console.log(`stack check: done in ${Math.round((Date.now() - started) / 1000)} s`);
