/**
 * Who a request comes from. The socket's peer, unless that peer is one of the operator's reverse
 * proxies (`VERBATIM_TRUSTED_PROXIES`: addresses or ranges, none by default): then the nearest
 * address `X-Forwarded-For` names that is not one of them. A header from anyone else is ignored,
 * so a client cannot choose the address it is counted under.
 */
import { Either, Option } from "effect"
import type { HttpServerRequest } from "@effect/platform"
import { BlockList, isIP } from "node:net"

/** The operator's proxies: `10.0.0.5, 10.1.0.0/16, ::1`. */
export type TrustedProxies = ReadonlyArray<string>

/** Parse the list; Left names the entry that is not an address or a range. */
export const parseTrustedProxies = (text: string): Either.Either<TrustedProxies, string> => {
  const entries = text.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "")
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/")
    const family = isIP(address)
    const bits = prefix === undefined ? null : Number(prefix)
    if (family === 0 || (bits !== null && !(Number.isInteger(bits) && bits >= 0 && bits <= (family === 4 ? 32 : 128)))) {
      return Either.left(`"${entry}" is not an IP address or a range such as 10.0.0.0/8`)
    }
  }
  return Either.right(entries)
}

/** An IPv4 address as Node reports it on a dual-stack socket (`::ffff:1.2.3.4`) written plainly. */
const plain = (address: string) => (address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address)

/** Whether an address (as a socket reports it) is one of these proxies. */
export const trustedAddress = (proxies: TrustedProxies): (address: string) => boolean => {
  const trusted = new BlockList()
  for (const entry of proxies) {
    const [address = "", prefix] = entry.split("/")
    const family = isIP(address) === 6 ? "ipv6" : "ipv4"
    if (prefix === undefined) trusted.addAddress(address, family)
    else trusted.addSubnet(address, Number(prefix), family)
  }
  return (address) => {
    const written = plain(address)
    return isIP(written) !== 0 && trusted.check(written, isIP(written) === 6 ? "ipv6" : "ipv4")
  }
}

/** A function from a request to its client's address, for these proxies. */
export const clientAddressOf = (proxies: TrustedProxies): (request: HttpServerRequest.HttpServerRequest) => string => {
  const isTrusted = trustedAddress(proxies)
  return (request) => {
    const peer = plain(Option.getOrElse(request.remoteAddress, () => "unknown"))
    if (proxies.length === 0 || !isTrusted(peer)) return peer
    const hops = (request.headers["x-forwarded-for"] ?? "").split(",").map((hop) => plain(hop.trim())).filter((hop) => hop !== "")
    // Each proxy appends the address it heard from: the first one, from the right, that is not ours is the client.
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!
      if (!isTrusted(hop)) return isIP(hop) === 0 ? peer : hop
    }
    return hops[0] ?? peer
  }
}
