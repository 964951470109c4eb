// Checking a server address before anything connects, as clients/address_check.py's check_address does.
// grpc-js takes "not an address:xx" or port 99999 without a word and fails only when it dials, so a
// typo would be retried as an unreachable server for half a minute before the bot gave up.
import { isIPv4, isIPv6 } from 'node:net';

const SCHEMES = ['unix:', 'unix-abstract:', 'dns:', 'ipv4:', 'ipv6:'];
const MAX_PORT = 65535;
// A host name or IPv4 address, or an IPv6 address in brackets.
const HOST = /^(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+(?:%[A-Za-z0-9._-]+)?\])$/;
// What grpc-js makes of a target: scheme, then "//AUTHORITY/" (a dns: target's DNS server), then the rest.
const TARGET = /^[A-Za-z0-9+.-]+:(?:\/\/[^/]*\/)?(.+)$/;
const EXAMPLES = { 'dns:': 'localhost:50051', 'ipv4:': '127.0.0.1:50051', 'ipv6:': '[::1]:50051' };

/** `text` if it is HOST:PORT (port 1..65535), [IPv6]:PORT or a gRPC scheme target; else a TypeError saying why. */
export function checkAddress(text) {
  const shown = JSON.stringify(String(text).slice(0, 80));
  if (typeof text !== 'string' || !text.trim()) throw new TypeError(`${shown} is not HOST:PORT (e.g. 127.0.0.1:50051)`);
  // As `sheepfold bot`: one server is played on (grpc-js would take ipv4:A,B and check only when dialling).
  if (text.includes(',') && !text.startsWith('unix:')) throw new TypeError(`${shown} names several servers; this command plays on one HOST:PORT`);
  const scheme = SCHEMES.find((prefix) => text.startsWith(prefix));
  if (scheme) {
    const rest = text.slice(scheme.length);
    if (!rest.replace(/^\/+/, '')) throw new TypeError(`${shown} names no address after its scheme (e.g. unix:/run/x.sock)`);
    // grpc-js has no resolver for it and read it as the host name "unix-abstract" ("Failed to parse DNS address").
    if (scheme === 'unix-abstract:') throw new TypeError(`${shown}: grpc-js, which this client connects with, has no unix-abstract: addresses; use unix:PATH or HOST:PORT`);
    // A socket path may hold spaces; a network target may not.
    if (!scheme.startsWith('unix') && /\s/.test(rest)) throw new TypeError(`${shown} has a space in its address`);
    if (!scheme.startsWith('unix')) checkNetworkTarget(text, shown, scheme);
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
  if (!portInRange(port)) throw new TypeError(portOutOfRange(shown, port));
  return text;
}

/**
 * Throws if the dns:, ipv4: or ipv6: target `text` is one grpc-js fails only when it dials: its host and port
 * split as grpc-js splits them (HOST, HOST:PORT, [IPv6] or [IPv6]:PORT; no port is 443), then the port's range
 * checked (grpc-js passed 99999 to Node's socket, whose RangeError was all the user saw) and an ipv4:/ipv6:
 * host's form ("Failed to parse ipv4 address").
 */
function checkNetworkTarget(text, shown, scheme) {
  const address = TARGET.exec(text)?.[1] ?? '';
  const parts = splitHostPort(address);
  if (!parts) throw new TypeError(`${shown}: ${JSON.stringify(address.slice(0, 60))} is not HOST:PORT (e.g. ${scheme}${EXAMPLES[scheme]})`);
  if (parts.port !== undefined && !portInRange(parts.port)) throw new TypeError(portOutOfRange(shown, parts.port));
  const family = { 'ipv4:': ['IPv4', isIPv4], 'ipv6:': ['IPv6', isIPv6] }[scheme];
  if (family && !family[1](parts.host)) {
    throw new TypeError(`${shown}: ${JSON.stringify(parts.host.slice(0, 60))} is not an ${family[0]} address (e.g. ${scheme}${EXAMPLES[scheme]})`);
  }
}

/** `address`'s host and port (digits, or undefined when there is none) as grpc-js's splitHostPort reads them, or null. */
function splitHostPort(address) {
  if (address.startsWith('[')) {
    const match = /^\[([^\]]*:[^\]]*)\](?::(\d+))?$/.exec(address);
    return match ? { host: match[1], port: match[2] } : null;
  }
  const pieces = address.split(':');
  // Two or more colons are an IPv6 address without brackets, and so without a port.
  if (pieces.length !== 2) return { host: address, port: undefined };
  return /^\d+$/.test(pieces[1]) ? { host: pieces[0], port: pieces[1] } : null;
}

const portInRange = (digits) => Number(digits) >= 1 && Number(digits) <= MAX_PORT;

/** What is said of a port (ASCII digits) past 1..65535, as clients/address_check.py's port_out_of_range says it. */
function portOutOfRange(shown, digits) {
  return `${shown}: ${digits.replace(/^0+/, '') || '0'} is not a port: use 1 to ${MAX_PORT}`;
}
