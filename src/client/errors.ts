// Errors of the client library. Every error the library raises itself is a ClientError with a
// machine-readable `code`; constraint compilation errors are the compiler's ConstraintError (with
// its own code and a pointer into the schema or regex), and engine failures are
// GenerationAbortedError / ModelLoadError from the engine.

export type ClientErrorCode =
  /** Options of the wrong type or shape: two constraints at once, maxTokens of 0, an unknown key, ... */
  | 'invalid-options'
  /** A remote model without `unsafeMode: true`. */
  | 'unsafe-mode-required'
  /** `model: "<provider>:<name>"` with a provider this library does not know. */
  | 'unknown-provider'
  /** No local model given, configured, or in SVC_MODEL. */
  | 'model-not-configured'
  /** A `model` that is neither a name of configure({ models }) or SVC_MODEL nor a file. */
  | 'model-not-found'
  /** The remote provider's API key is not in its environment variable. */
  | 'missing-api-key'
  /** The remote provider answered with an error, a refusal, or something that is not a chat completion. */
  | 'provider-error'
  /** The remote provider cannot enforce this kind of constraint (e.g. a regex under JSON mode only). */
  | 'unsupported-constraint'
  /** Generation stopped at maxTokens before the output satisfied the constraint, or maxTokens is below the fewest tokens the constraint's output takes on the model. */
  | 'incomplete-output'
  /** The output does not satisfy the constraint (checked locally on every output, local or remote). */
  | 'validation-failed'
  /** The operation does not exist for this kind of model (e.g. embeddings from a remote model, generation from an embedding model). */
  | 'unsupported-operation'
  /** The input does not fit the model's context: a prompt leaving no room for one output token, a text to embed over it (the message has the numbers). */
  | 'context-exceeded';

export class ClientError extends Error {
  readonly code: ClientErrorCode;
  /** HTTP status, for provider errors. */
  readonly status?: number;
  /** The output that failed, for incomplete-output and validation-failed. */
  readonly output?: string;
  /** The named models there are, for model-not-configured and model-not-found. */
  readonly models?: readonly string[];

  constructor(
    code: ClientErrorCode,
    message: string,
    options: { cause?: unknown; status?: number; output?: string; models?: readonly string[] } = {},
  ) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = 'ClientError';
    this.code = code;
    this.status = options.status;
    this.output = options.output;
    this.models = options.models;
  }
}

export const invalidOptions = (message: string) => new ClientError('invalid-options', message);
