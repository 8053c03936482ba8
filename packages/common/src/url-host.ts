/** An address as the host of a URL: an IPv6 literal takes brackets (`fd00::7` → `[fd00::7]`), anything else stays. */
export const urlHost = (address: string): string =>
  address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;
