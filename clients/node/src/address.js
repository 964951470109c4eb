// Checking a server address before anything connects, as clients/connect.py's check_address does.
// grpc-js takes "not an address:xx" or port 99999 without a word and fails only when it dials, so a
// typo would be retried as an unreachable server for half a minute before the bot gave up.

const SCHEMES = ['unix:', 'unix-abstract:', 'dns:', 'ipv4:', 'ipv6:'];
const MAX_PORT = 65535;
// A host name or IPv4 address, or an IPv6 address in brackets.
const HOST = /^(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+(?:%[A-Za-z0-9._-]+)?\])$/;

/** `text` if it is HOST:PORT (port 1..65535), [IPv6]:PORT or a gRPC scheme target; else a TypeError saying why. */
export function checkAddress(text) {
  const shown = JSON.stringify(String(text).slice(0, 80));
  if (typeof text !== 'string' || !text.trim()) throw new TypeError(`${shown} is not HOST:PORT (e.g. 127.0.0.1:50051)`);
  const scheme = SCHEMES.find((prefix) => text.startsWith(prefix));
  if (scheme) {
    const rest = text.slice(scheme.length);
    if (!rest.replace(/^\/+/, '')) throw new TypeError(`${shown} names no address after its scheme (e.g. unix:/run/x.sock)`);
    // A socket path may hold spaces; a network target may not.
    if (!scheme.startsWith('unix') && /\s/.test(rest)) throw new TypeError(`${shown} has a space in its address`);
    return text;
  }
  const colon = text.lastIndexOf(':');
  const host = colon > 0 ? text.slice(0, colon) : '';
  const port = colon > 0 ? text.slice(colon + 1) : '';
  if (!host || !port) throw new TypeError(`${shown} is not HOST:PORT (e.g. 127.0.0.1:50051)`);
  if (!HOST.test(host)) {
    const hint = host.includes(':') && !host.startsWith('[') ? ' (an IPv6 address goes in brackets: [::1]:50051)' : '';
    throw new TypeError(`${shown}: ${JSON.stringify(host.slice(0, 60))} is not a host name or address${hint}`);
  }
  if (!/^\d+$/.test(port)) throw new TypeError(`${shown}: ${JSON.stringify(port.slice(0, 20))} is not a port number`);
  if (Number(port) < 1 || Number(port) > MAX_PORT) throw new TypeError(`${shown}: ${Number(port)} is not a port: use 1 to ${MAX_PORT}`);
  return text;
}
