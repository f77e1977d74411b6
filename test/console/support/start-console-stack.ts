import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { connect } from "node:net";
import type { Duplex } from "node:stream";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { startAopd, type AopdConfig, type RunningAopd } from "@compliance-graph/aopd";
import { consoleDistDir, consoleRoute } from "@compliance-graph/console";
import { createDevIdentityProvider, type DevIdentityProvider } from "@compliance-graph/dev-identity-provider";
import { startGateway, type RunningGateway } from "@compliance-graph/gateway";
import { createInternalTokenVerifier, generateInternalSigningKey } from "@compliance-graph/identity";
import { createLogger, forwardPathPrefix, RouteTable } from "@compliance-graph/process-shell";
import { startTrpd } from "@compliance-graph/trpd";
import { fetchToken, postGraphQL, type GraphQLBody } from "@compliance-graph/test-kit";

export interface ConsoleStack {
  /** The one origin of this stack, as `npm start` has one: `http://127.0.0.1:<port>`. */
  baseUrl: string;
  idp: DevIdentityProvider;
  gateway: RunningGateway;
  aopd: RunningAopd;
  /** An API client's token (every role), for arranging and checking through /graphql. */
  apiToken(): Promise<string>;
  /** A realm user's token through the password grant of the frontend client. */
  userToken(username: string, password: string): Promise<string>;
  query(query: string, token: string, variables?: Record<string, unknown>): Promise<GraphQLBody>;
  /**
   * Holds the next `/graphql` request of the operation named `operationName` at the ingress (a slow
   * network, a slow aopd), before it reaches the gateway, until `release` is called.
   */
  holdOperation(operationName: string): HeldRequest;
  /** A network cut for WebSockets only: cuts the open ones and refuses new ones until `restore` is called. */
  cutWebSockets(): { restore(): void };
  /**
   * What `npm start` stopped and started again does to an open console: the identity provider comes
   * back with new signing keys and no sessions, and the gateway with it, behind the same origin (aopd
   * keeps its data). Tokens issued before are refused from then on.
   */
  restartIdentityProviderAndGateway(): Promise<void>;
  close(): Promise<void>;
}

/** A request `holdOperation` holds at the ingress. */
export interface HeldRequest {
  /** Resolves when the request has reached the ingress and is held there. */
  reached: Promise<void>;
  /** Resolves when the browser gave up the held request (aborted it: its connection closed before an answer). */
  abandoned: Promise<void>;
  /** Passes the request on to the gateway (nothing, once it was abandoned). */
  release(): void;
}

/**
 * The whole system behind one origin, as `npm start` and a production ingress serve it: an ingress
 * on a free port that serves the identity provider (issuer on this origin, so the browser's sign-in
 * redirects stay here), the console's files, aopd's portal, and passes everything else (HTTP and
 * WebSocket upgrades, with every header) to the gateway. The real aopd runs on `databaseUrl`.
 */
export interface ConsoleStackOptions {
  databaseUrl: string;
  accessTokenTtlSeconds?: number;
  /** AOPD_FOUR_EYES_KINDS. @default [] */
  fourEyesKinds?: ("media" | "satoshi")[];
  /** AOPD_THEME_FILE and AOPD_LOGO_FILE: the operator's look. @default the files shipped in subgraphs/aopd/portal/ */
  themeFile?: string;
  logoFile?: string;
  /** AOPD_SCREENING_POLICY: `refuse` refuses requests for listed addresses. @default flag */
  screeningPolicy?: "flag" | "refuse";
  /** aopd's chain connections (`AOPD_CHAIN_*`, e.g. to a local anvil): Satoshi checks and ERC-1271 wallets. @default none */
  chain?: AopdConfig["chain"];
  /** AOPD_EXPIRY_INTERVAL_SECONDS; 0 runs no expiry, so a proof past its due time stays PENDING, as between two runs. @default aopd's (10 seconds) */
  expiryIntervalSeconds?: number;
}

export async function startConsoleStack(options: ConsoleStackOptions): Promise<ConsoleStack> {
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  let handle: ((request: IncomingMessage, response: ServerResponse) => Promise<boolean>) | undefined;
  let gatewayPort = 0;
  const holds = new Map<string, (request: IncomingMessage, response: ServerResponse, body: Buffer) => void>();
  const ingress = createServer((request, response) => {
    void (handle?.(request, response) ?? Promise.resolve(false)).then(async (handled) => {
      if (handled) return;
      if (holds.size === 0 || request.method !== "POST" || !request.url?.startsWith("/graphql")) return proxy(request, response, gatewayPort);
      // An operation may be held: its body is read first, to find its name.
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const query = String((JSON.parse(body.toString("utf8") || "{}") as { query?: unknown }).query ?? "");
      const name = /^\s*(?:query|mutation|subscription)\s+(\w+)/.exec(query)?.[1];
      const hold = name === undefined ? undefined : holds.get(name);
      if (!hold) return proxy(request, response, gatewayPort, body);
      holds.delete(name!);
      hold(request, response, body);
    });
  });
  const openSockets = new Set<Duplex>();
  let socketsCut = false;
  ingress.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (socketsCut) {
      socket.destroy();
      return;
    }
    openSockets.add(socket);
    socket.on("close", () => openSockets.delete(socket));
    const upstream = connect(gatewayPort, "127.0.0.1", () => {
      const lines = [
        `${request.method} ${request.url} HTTP/1.1`,
        ...Object.entries(request.headers).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((item) => `${name}: ${item}`)),
      ];
      upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => ingress.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        ingress.close(() => resolve());
        ingress.closeAllConnections();
      }),
  );
  const baseUrl = `http://127.0.0.1:${(ingress.address() as AddressInfo).port}`;
  try {
    const startIdentityProvider = () =>
      createDevIdentityProvider({
        baseUrl,
        ...(options.accessTokenTtlSeconds ? { accessTokenTtlSeconds: options.accessTokenTtlSeconds } : {}),
      });
    let idp = await startIdentityProvider();
    const internalKey = await generateInternalSigningKey();
    const verifierFor = (audience: string) => createInternalTokenVerifier({ audience, publicKeys: [internalKey.publicJwk] });
    const aopd = await startAopd({
      config: {
        port: 0,
        databaseUrl: options.databaseUrl,
        production: false,
        portalUrl: `${baseUrl}/portal`,
        callbackBaseUrl: `${baseUrl}/aopp/callback`,
        mediaUrl: `${baseUrl}/aopd/media`,
        trustedProxyHops: 1,
        fourEyesKinds: options.fourEyesKinds ?? [],
        ...(options.themeFile ? { themeFile: options.themeFile } : {}),
        ...(options.logoFile ? { logoFile: options.logoFile } : {}),
        ...(options.chain ? { chain: options.chain } : {}),
        ...(options.screeningPolicy ? { screening: { policy: options.screeningPolicy, provider: undefined } } : {}),
        ...(options.expiryIntervalSeconds === undefined ? {} : { expiryIntervalSeconds: options.expiryIntervalSeconds }),
      },
      authenticate: verifierFor("aopd"),
      seedDemoProofs: 0,
      logger: createLogger("aopd", "silent"),
    });
    closers.push(() => aopd.close());
    const trpd = await startTrpd({ config: { port: 0, production: false }, authenticate: verifierFor("trpd"), logger: createLogger("trpd", "silent") });
    closers.push(() => trpd.close());
    const startFrontGateway = () =>
      startGateway({
        port: 0,
        production: false,
        supergraph: { path: fileURLToPath(new URL("../../../supergraph.graphql", import.meta.url)), pollIntervalMs: 60_000 },
        subgraphUrls: { aopd: aopd.url, trpd: trpd.url },
        oidc: { issuer: idp.issuer, audience: idp.audience },
        internalToken: { privateJwk: internalKey.privateJwk },
        logger: createLogger("gateway", "silent"),
      });
    let gateway = await startFrontGateway();
    closers.push(() => gateway.close());
    gatewayPort = Number(new URL(gateway.baseUrl).port);
    const forwardPortal = forwardPathPrefix("/portal/", aopd.url);
    const serveConsole = consoleRoute(consoleDistDir, { issuer: idp.issuer });
    // The ingress's own routes, as npm start's gateway has them; everything else goes to the gateway.
    const routeIngress = () => {
      const table = new RouteTable([...idp.routes, forwardPortal, ...serveConsole]);
      handle = (request, response) => table.answer(request, response, "ingress");
    };
    routeIngress();
    return {
      baseUrl,
      get idp() {
        return idp;
      },
      get gateway() {
        return gateway;
      },
      aopd,
      apiToken: () => fetchToken(idp.tokenEndpoint, "dev-api-client", "dev-secret"),
      async userToken(username, password) {
        const response = await fetch(idp.tokenEndpoint, {
          method: "POST",
          body: new URLSearchParams({ grant_type: "password", client_id: "compliance-graph-frontend", username, password, scope: "openid" }),
        });
        const body = (await response.json()) as { access_token?: string };
        if (!body.access_token) throw new Error(`no token for ${username}: ${JSON.stringify(body)}`);
        return body.access_token;
      },
      query: async (query, token, variables) => (await postGraphQL(`${baseUrl}/graphql`, query, token, variables)).body,
      holdOperation(operationName) {
        let reach!: () => void;
        let abandon!: () => void;
        let release: () => void = () => {};
        const reached = new Promise<void>((resolve) => (reach = resolve));
        const abandoned = new Promise<void>((resolve) => (abandon = resolve));
        holds.set(operationName, (request, response, body) => {
          let gone = false;
          // The connection closed before any answer: the browser aborted the request.
          response.on("close", () => {
            if (response.writableFinished) return;
            gone = true;
            abandon();
          });
          release = () => {
            if (!gone) proxy(request, response, gatewayPort, body);
          };
          reach();
        });
        return { reached, abandoned, release: () => release() };
      },
      cutWebSockets() {
        socketsCut = true;
        for (const socket of openSockets) socket.destroy();
        return { restore: () => void (socketsCut = false) };
      },
      async restartIdentityProviderAndGateway() {
        await gateway.close();
        for (const socket of openSockets) socket.destroy();
        idp = await startIdentityProvider();
        gateway = await startFrontGateway();
        gatewayPort = Number(new URL(gateway.baseUrl).port);
        routeIngress();
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** An ingress hop: the request as it came (every header, the body streamed, or `body` where it was read already) to the gateway, and its answer back. */
function proxy(request: IncomingMessage, response: ServerResponse, port: number, body?: Buffer): void {
  const upstream = httpRequest({ host: "127.0.0.1", port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(response);
  });
  upstream.on("error", () => {
    if (!response.headersSent) response.writeHead(502);
    response.end();
  });
  if (body) upstream.end(body);
  else request.pipe(upstream);
}
