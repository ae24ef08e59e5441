import { BlockList, isIP } from 'node:net';
import { AsnConvert } from '@peculiar/asn1-schema';
import { GeneralName, GeneralSubtree, GeneralSubtrees, NameConstraints } from '@peculiar/asn1-x509';
import { x509 } from './x509';

/** The Name Constraints extension (RFC 5280 §4.2.1.10). */
const NAME_CONSTRAINTS_OID = '2.5.29.30';

/**
 * Names every host on a private network may have, and no public site can: `localhost`, mDNS's
 * `.local`, and the two suffixes set aside for private networks (`home.arpa`, RFC 8375;
 * `internal`, reserved by ICANN in 2024). A DNS constraint covers the name and every name below
 * it (RFC 5280). The machine's own bare name is deliberately not among them: a machine called
 * `dev` or `app` would make the authority able to sign for every name under that public
 * top-level domain. The machine is reached as `<name>.local` instead.
 */
const PRIVATE_DNS = ['localhost', 'local', 'home.arpa', 'internal'] as const;

/**
 * Loopback, private, link-local and carrier-grade NAT ranges: the addresses a host on a LAN
 * (or a phone's hotspot) answers on, and none that a public site can have. The documentation
 * ranges (RFC 5737, RFC 3849) are never routed on the internet either; test networks (this
 * project's CI among them) number their machines from them.
 */
const PRIVATE_IP = [
  '127.0.0.0/8',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '169.254.0.0/16',
  '100.64.0.0/10',
  '192.0.2.0/24',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
  '2001:db8::/32',
] as const;

/**
 * What the local authority may vouch for: local names and private address ranges. Carried by the authority's certificate as a critical extension, so a client
 * refuses any certificate its key signed for another name, even if the key leaks.
 */
export class LocalNameConstraints {
  private readonly ips = new BlockList();

  private constructor(
    /** The permitted DNS subtrees. */
    readonly dns: readonly string[],
    /** The permitted address ranges, as `address/prefix`. */
    readonly ipRanges: readonly string[],
  ) {
    for (const range of ipRanges) {
      const [address = '', prefix = ''] = range.split('/');
      this.ips.addSubnet(address, Number(prefix), isIP(address) === 6 ? 'ipv6' : 'ipv4');
    }
  }

  /** The constraints of every local authority: local names and private address ranges. */
  static local(): LocalNameConstraints {
    return new LocalNameConstraints([...PRIVATE_DNS], [...PRIVATE_IP]);
  }

  /**
   * The constraints an authority's certificate carries, or undefined when it has none (an
   * authority made before they existed), they are not critical, or they permit more than
   * {@link LocalNameConstraints.local} (an authority made while a machine's bare name was
   * permitted): each such authority is replaced.
   */
  static of(certificate: x509.X509Certificate): LocalNameConstraints | undefined {
    const extension = certificate.getExtension(NAME_CONSTRAINTS_OID);
    if (!extension?.critical) return undefined;
    const parsed = AsnConvert.parse(extension.value, NameConstraints);
    const dns: string[] = [];
    const ips: string[] = [];
    for (const subtree of parsed.permittedSubtrees ?? []) {
      if (subtree.base.dNSName !== undefined) dns.push(subtree.base.dNSName);
      if (subtree.base.iPAddress !== undefined) ips.push(subtree.base.iPAddress);
    }
    const local = new Set<string>([...PRIVATE_DNS, ...PRIVATE_IP]);
    if (![...dns, ...ips].every((name) => local.has(name))) return undefined;
    return new LocalNameConstraints(dns, ips);
  }

  /** Whether a certificate for `name` (a DNS name or an IP address) is within the constraints. */
  permits(name: string): boolean {
    const family = isIP(name);
    if (family === 0) return coveredBy(this.dns, name.toLowerCase());
    return this.ips.check(name, family === 6 ? 'ipv6' : 'ipv4');
  }

  /** The critical X.509 extension that says so. */
  extension(): x509.Extension {
    const subtree = (base: GeneralName) => new GeneralSubtree({ base });
    const permitted = new GeneralSubtrees([
      ...this.dns.map((dNSName) => subtree(new GeneralName({ dNSName }))),
      ...this.ipRanges.map((iPAddress) => subtree(new GeneralName({ iPAddress }))),
    ]);
    const value = AsnConvert.serialize(new NameConstraints({ permittedSubtrees: permitted }));
    return new x509.Extension(NAME_CONSTRAINTS_OID, true, value);
  }
}

function coveredBy(subtrees: readonly string[], name: string): boolean {
  return subtrees.some((base) => name === base || name.endsWith(`.${base}`));
}
