/**
 * The socket peer of each request. Only the entry point (Bun or Deno) knows it, so it records
 * it here before handing the request to the app; tests do the same for the addresses they need.
 */
const peers = new WeakMap<Request, string>();

export function setPeerAddress(request: Request, address: string | undefined): Request {
  if (address) peers.set(request, address);
  return request;
}

export const peerAddress = (request: Request): string | undefined => peers.get(request);
