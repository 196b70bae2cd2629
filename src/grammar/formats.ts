// String formats as regexes over the string's content, compiled by the regex compiler. Each one is
// a subset of what ajv-formats (full mode) accepts, so output always validates; where the subset is
// strict it says so (see docs/grammar.md).

const DATE_NOT_FEB_29 = String.raw`[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))`;
// Leap years: divisible by 4 and not by 100, or divisible by 400.
const DATE_FEB_29 = String.raw`(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[048]|[2468][048]|[13579][26])00)-02-29`;
const DATE = `(?:${DATE_NOT_FEB_29}|${DATE_FEB_29})`;
// No leap second (23:59:60): ajv accepts it only at UTC midnight, which a grammar cannot see.
const TIME = String.raw`(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])`;
const LABEL = String.raw`[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?`;
const OCTET = String.raw`(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])`;
const PCHAR = String.raw`(?:[a-zA-Z0-9._~!$&'()*+,;=:@-]|%[0-9a-fA-F]{2})`;
const QCHAR = String.raw`(?:[a-zA-Z0-9._~!$&'()*+,;=:@/?-]|%[0-9a-fA-F]{2})`;
const USERINFO = String.raw`(?:(?:[a-zA-Z0-9._~!$&'()*+,;=:-]|%[0-9a-fA-F]{2})*@)?`;
const REG_NAME = String.raw`(?:[a-zA-Z0-9._~!$&'()*+,;=-]|%[0-9a-fA-F]{2})*`;

// ajv-formats matches email and ipv6 with the `i` flag but without `u`; spelling both cases out
// keeps our (Unicode) case folding from adding characters such as U+017F that ajv would reject.
const bothCases = (pattern: string) => pattern.replace(/a-z/g, 'a-zA-Z').replace(/a-f/g, 'a-fA-F');

export const FORMAT_PATTERNS: Readonly<Record<string, { pattern: string; flags: string }>> = {
  date: { pattern: DATE, flags: '' },
  time: { pattern: TIME, flags: '' },
  'date-time': { pattern: `${DATE}T${TIME}`, flags: '' },
  uuid: { pattern: String.raw`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`, flags: '' },
  // ajv-formats' own email regex (it has no lookaround), anchors removed.
  email: {
    pattern: bothCases(
      String.raw`[a-z0-9!#$%&'*+/=?^_${'`'}{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_${'`'}{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?`,
    ),
    flags: '',
  },
  // RFC 3986 URIs as ajv-formats' regex reads them (its alternatives, character sets and case
  // folding): scheme ":" then "//" authority and path, an absolute path, or a rootless path
  // (mailto:, urn:, file:///), then query and fragment. Only IP-literal hosts ([::1]) are left out.
  uri: {
    pattern: String.raw`[a-zA-Z][a-zA-Z0-9+.-]*:(?:/?/${USERINFO}${REG_NAME}(?::[0-9]*)?(?:/${PCHAR}*)*|/(?:${PCHAR}+(?:/${PCHAR}*)*)?|${PCHAR}+(?:/${PCHAR}*)*)(?:\?${QCHAR}*)?(?:#${QCHAR}*)?`,
    flags: '',
  },
  ipv4: { pattern: String.raw`${OCTET}(?:\.${OCTET}){3}`, flags: '' },
  // ajv-formats' own ipv6 regex, anchors removed.
  ipv6: {
    pattern: bothCases(
      String.raw`((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{1,4}|((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]{1,4}){0,4}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:)))`,
    ),
    flags: '',
  },
  // At most three labels (<= 192 characters), which keeps ajv's 253-character limit without a lookahead.
  hostname: { pattern: `${LABEL}(?:\\.${LABEL}){0,2}\\.?`, flags: '' },
};

/** Formats the grammar writes as plain strings and leaves to the validator (ajv-formats knows them). */
export const VALIDATED_FORMATS: ReadonlySet<string> = new Set([
  'duration',
  'uri-reference',
  'uri-template',
  'url',
  'regex',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'password',
  'binary',
  'iso-time',
  'iso-date-time',
]);

/** Number formats ajv-formats checks on numbers; the grammar writes a plain number. */
export const NUMBER_FORMATS: ReadonlySet<string> = new Set(['int32', 'int64', 'float', 'double']);
