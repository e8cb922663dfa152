import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * One address in front of servers that come and go, as a load balancer in
 * front of a deployment is: each new connection goes to the first server
 * (by port, on 127.0.0.1) that accepts it. While `accepting` is off, new
 * connections are closed at once (no server behind is ready yet); while
 * `dropReplies` is on, what the servers send is dropped (an ack that never
 * reaches the client).
 */
export class TcpProxy {
  accepting = true;
  dropReplies = false;
  /** The port of the server the latest connection reached. */
  lastTarget: number | null = null;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly targets: number[],
  ) {}

  /** Listens on a free port of 127.0.0.1. */
  static async start(targets: number[]): Promise<TcpProxy> {
    const server = createServer();
    const proxy = new TcpProxy(server, targets);
    server.on('connection', (client) => proxy.accept(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    const address = this.server.address();
    if (typeof address !== 'object' || address === null) throw new Error('the proxy is not listening');
    return `http://127.0.0.1:${address.port}`;
  }

  private accept(client: Socket): void {
    this.track(client);
    if (!this.accepting) {
      client.destroy();
      return;
    }
    // What the client sends before a server is reached waits for it.
    client.pause();
    const tryTarget = (index: number) => {
      const port = this.targets[index];
      if (port === undefined) {
        client.destroy();
        return;
      }
      const upstream = connect(port, '127.0.0.1');
      let reached = false;
      upstream.on('error', () => {
        if (reached) client.destroy();
        else tryTarget(index + 1);
      });
      upstream.once('connect', () => {
        reached = true;
        this.track(upstream);
        this.lastTarget = port;
        client.on('error', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.on('close', () => upstream.destroy());
        client.on('data', (chunk) => upstream.write(chunk));
        upstream.on('data', (chunk) => {
          if (!this.dropReplies) client.write(chunk);
        });
        client.resume();
      });
    };
    tryTarget(0);
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  /** Cuts every connection through the proxy, as a network failure does (with `accepting` off, the service is away). */
  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  async close(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
