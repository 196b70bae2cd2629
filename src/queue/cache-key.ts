// The cache identity of a request: its function and every parameter that changes the output (all of
// them but use_cache and stream), as canonical JSON — keys sorted at every level, no whitespace — so the
// extension (plv8) and the worker (Node) derive the same text. SQL hashes it (sha256) into the key;
// the model identity is stored beside it.
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value as object)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

export function cacheIdentity(functionName: string, parameters: Record<string, unknown>): string {
  // stream (svc_generate_stream's mark) only asks the worker to publish the text as it comes: the same request, the same entry.
  const { use_cache: _ignored, stream: _streamed, ...rest } = parameters;
  return canonicalJson({ function: functionName, parameters: rest });
}
