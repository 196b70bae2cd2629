// svc's embedding addon: many texts' embeddings in one call from JavaScript, computed by the same
// llama.cpp that node-llama-cpp loads (linked against its prebuilt libllama, so the process holds one
// copy of llama.cpp and ggml). node-llama-cpp's embedding context evaluates one text per call and
// reads back sequence 0 only; this addon
// - puts several sequences in one llama_decode and reads every sequence's vector back, where that
//   gives each vector the same bytes as decoding it alone: decoders with a KV cache of one stream per
//   sequence (kv_unified = false), sequences of the same length (see execute) and of at least 2
//   tokens (a 1-token batch takes llama.cpp's matrix-vector kernels, whose sums round
//   differently), as many as fit one micro-batch of the context's size;
// - decodes encoders (no KV cache: BERT, svc-embed) one sequence per llama_decode, still all in
//   one call: their attention spans the whole batch, so packed sequences cost quadratically more
//   and their softmax and pooling sums round differently (docs/benchmarks.md, *Batched embeddings*).
// Every llama.cpp setting that reaches the numbers is node-llama-cpp's (flash attention "auto", the
// same thread count, context size and pooling), so a vector has the same bytes either way
// (test/engine/embed-batch.test.ts). N-API's C interface: no headers beyond Node's.
#include <node_api.h>

#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "ggml-backend.h"
#include "llama.h"

namespace {

#define CHECK(call)                                  \
  do {                                               \
    if ((call) != napi_ok) return fail(env, #call);  \
  } while (0)

napi_value fail(napi_env env, const char *what) {
  const napi_extended_error_info *info = nullptr;
  napi_get_last_error_info(env, &info);
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (!pending) napi_throw_error(env, nullptr, (std::string("svc embed addon: ") + what + ": " + (info && info->error_message ? info->error_message : "failed")).c_str());
  return nullptr;
}

napi_value throwError(napi_env env, const std::string &message) {
  napi_throw_error(env, nullptr, message.c_str());
  return nullptr;
}

// llama.cpp's objects are freed when JavaScript asks (freeModel / freeContext, the engine's dispose)
// and nothing uses them any more: a context in the middle of a call is freed when the call ends, a
// model when its last context is.
struct Model {
  llama_model *model = nullptr;
  uint32_t contexts = 0; // contexts not yet freed
  bool released = false; // freeModel was called
};

void releaseModelIfUnused(Model *m) {
  if (m->released && m->contexts == 0 && m->model) {
    llama_model_free(m->model);
    m->model = nullptr;
  }
}

struct Context {
  llama_context *ctx = nullptr;
  Model *owner = nullptr;
  const llama_model *model = nullptr;
  bool released = false; // freeContext was called
  uint32_t sequences = 1;   // sequences one decode may hold
  uint32_t batchTokens = 0; // tokens one decode may hold (one micro-batch)
  int32_t embd = 0;
  bool packs = false;       // whether sequences share a decode (see the header)
  bool busy = false;
};

void releaseContextIfIdle(Context *c) {
  if (c->released && !c->busy && c->ctx) {
    llama_free(c->ctx);
    c->ctx = nullptr;
    c->owner->contexts--;
    releaseModelIfUnused(c->owner);
  }
}

// The directory of the libllama this process loaded, for ggml's CPU backends when nothing loaded
// them yet (node-llama-cpp loads them first in svc; a standalone use of the addon would not).
void ensureBackends() {
  if (ggml_backend_dev_count() > 0) return;
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&llama_decode), &info) && info.dli_fname) {
    std::string dir(info.dli_fname);
    dir = dir.substr(0, dir.find_last_of('/'));
    ggml_backend_load_all_from_path(dir.c_str());
  }
  llama_backend_init();
}

bool getUint32(napi_env env, napi_value object, const char *name, uint32_t &out) {
  napi_value value;
  if (napi_get_named_property(env, object, name, &value) != napi_ok) return false;
  return napi_get_value_uint32(env, value, &out) == napi_ok;
}

template <typename T>
T *unwrap(napi_env env, napi_value value) {
  void *data = nullptr;
  if (napi_get_value_external(env, value, &data) != napi_ok) return nullptr;
  return static_cast<T *>(data);
}

// A handle collected by JavaScript's GC frees its struct once llama.cpp's object is freed (a
// context's struct is referenced by its running call, which holds the handle alive through the
// promise's work; a model's by its contexts).
void finalizeModel(napi_env, void *data, void *) {
  Model *m = static_cast<Model *>(data);
  if (!m->model && m->contexts == 0) delete m;
}
void finalizeContext(napi_env, void *data, void *) {
  Context *c = static_cast<Context *>(data);
  if (!c->ctx) delete c;
}

// loadModel(path) -> handle. CPU only (the engine uses the addon where node-llama-cpp runs on the CPU).
napi_value loadModel(napi_env env, napi_callback_info cb) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, cb, &argc, argv, nullptr, nullptr));
  size_t length = 0;
  CHECK(napi_get_value_string_utf8(env, argv[0], nullptr, 0, &length));
  std::string path(length, '\0');
  CHECK(napi_get_value_string_utf8(env, argv[0], path.data(), length + 1, &length));
  ensureBackends();
  llama_model_params params = llama_model_default_params();
  params.n_gpu_layers = 0;
  llama_model *model = llama_model_load_from_file(path.c_str(), params);
  if (!model) return throwError(env, "svc embed addon: llama.cpp could not load " + path);
  napi_value handle;
  CHECK(napi_create_external(env, new Model{model}, finalizeModel, nullptr, &handle));
  return handle;
}

napi_value freeModel(napi_env env, napi_callback_info cb) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, cb, &argc, argv, nullptr, nullptr));
  Model *m = unwrap<Model>(env, argv[0]);
  if (m) {
    m->released = true;
    releaseModelIfUnused(m);
  }
  return nullptr;
}

// createContext(model, { threads, contextSize, sequences }) -> handle, or throws where the model
// embeds in a way this addon does not read (a ranking head: the engine keeps node-llama-cpp's path).
napi_value createContext(napi_env env, napi_callback_info cb) {
  size_t argc = 2;
  napi_value argv[2];
  CHECK(napi_get_cb_info(env, cb, &argc, argv, nullptr, nullptr));
  Model *m = unwrap<Model>(env, argv[0]);
  if (!m || !m->model || m->released) return throwError(env, "svc embed addon: the model is freed");
  uint32_t threads = 1, contextSize = 0, sequences = 1;
  if (!getUint32(env, argv[1], "threads", threads) || !getUint32(env, argv[1], "contextSize", contextSize) ||
      !getUint32(env, argv[1], "sequences", sequences) || threads < 1 || contextSize < 1 || sequences < 1)
    return throwError(env, "svc embed addon: createContext needs threads, contextSize and sequences (integers >= 1)");

  llama_context_params params = llama_context_default_params();
  params.embeddings = true;
  params.n_threads = static_cast<int32_t>(threads);
  params.n_threads_batch = static_cast<int32_t>(threads);
  params.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_AUTO; // node-llama-cpp's default ("auto")
  params.kv_unified = false;                               // a KV stream per sequence
  params.swa_full = false;
  params.no_perf = true;
  params.n_seq_max = 1;
  params.n_ctx = params.n_batch = params.n_ubatch = contextSize;
  // First one sequence (an encoder's only form: its micro-batch must hold all it decodes at once, and
  // its attention buffers grow with the square of that); a decoder that can pack gets its context again.
  llama_context *ctx = llama_init_from_model(m->model, params);
  if (!ctx) return throwError(env, "svc embed addon: llama.cpp could not make a context");
  const enum llama_pooling_type pooling = llama_pooling_type(ctx);
  if (pooling == LLAMA_POOLING_TYPE_RANK) {
    llama_free(ctx);
    return throwError(env, "svc embed addon: a ranking head's output is not an embedding");
  }
  const bool packs = sequences > 1 && llama_get_memory(ctx) != nullptr && !llama_model_has_encoder(m->model) &&
                     !llama_model_is_recurrent(m->model) && !llama_model_is_hybrid(m->model);
  if (packs) {
    llama_free(ctx);
    // Each sequence gets the engine's whole context (its own KV stream); one decode holds what fits
    // one micro-batch of contextSize tokens, as node-llama-cpp's context does: llama.cpp outputs every
    // token of an embedding batch, logits included (the vocabulary times the tokens), so a larger
    // micro-batch would multiply those buffers.
    params.n_seq_max = sequences;
    params.n_ctx = contextSize * sequences;
    ctx = llama_init_from_model(m->model, params);
    if (!ctx) return throwError(env, "svc embed addon: llama.cpp could not make a context of " + std::to_string(sequences) + " sequences");
  }
  auto *c = new Context();
  c->ctx = ctx;
  c->owner = m;
  c->model = m->model;
  m->contexts++;
  c->sequences = packs ? sequences : 1;
  c->batchTokens = params.n_ubatch;
  c->embd = llama_model_n_embd_out(m->model);
  c->packs = packs;
  napi_value handle;
  CHECK(napi_create_external(env, c, finalizeContext, nullptr, &handle));
  return handle;
}

napi_value freeContext(napi_env env, napi_callback_info cb) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, cb, &argc, argv, nullptr, nullptr));
  Context *c = unwrap<Context>(env, argv[0]);
  if (c) {
    c->released = true;
    releaseContextIfIdle(c);
  }
  return nullptr;
}

// info(context) -> { packs, sequences, embd }
napi_value info(napi_env env, napi_callback_info cb) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, cb, &argc, argv, nullptr, nullptr));
  Context *c = unwrap<Context>(env, argv[0]);
  if (!c || !c->ctx) return throwError(env, "svc embed addon: the context is freed");
  napi_value out, packs, sequences, embd;
  CHECK(napi_create_object(env, &out));
  CHECK(napi_get_boolean(env, c->packs, &packs));
  CHECK(napi_create_uint32(env, c->sequences, &sequences));
  CHECK(napi_create_int32(env, c->embd, &embd));
  CHECK(napi_set_named_property(env, out, "packs", packs));
  CHECK(napi_set_named_property(env, out, "sequences", sequences));
  CHECK(napi_set_named_property(env, out, "embd", embd));
  return out;
}

struct Job {
  Context *c;
  std::vector<std::vector<llama_token>> tokens;
  std::vector<std::vector<float>> vectors;
  uint32_t decodes = 0;
  std::string error;
  napi_deferred deferred;
  napi_async_work work;
};

// Decodes `group` (indices into job->tokens) in one llama_decode and reads each one's vector.
bool decodeGroup(Job *job, const std::vector<size_t> &group) {
  Context *c = job->c;
  llama_memory_t memory = llama_get_memory(c->ctx);
  if (memory) llama_memory_clear(memory, true);
  size_t total = 0;
  for (size_t i : group) total += job->tokens[i].size();
  llama_batch batch = llama_batch_init(static_cast<int32_t>(total), 0, 1);
  const enum llama_pooling_type pooling = llama_pooling_type(c->ctx);
  std::vector<int32_t> last(group.size());
  for (size_t s = 0; s < group.size(); s++) {
    const auto &tokens = job->tokens[group[s]];
    for (size_t p = 0; p < tokens.size(); p++) {
      const int32_t k = batch.n_tokens++;
      batch.token[k] = tokens[p];
      batch.pos[k] = static_cast<llama_pos>(p);
      batch.n_seq_id[k] = 1;
      batch.seq_id[k][0] = static_cast<llama_seq_id>(s);
      // Pooled models use every token; otherwise a sequence's vector is its last token's (as node-llama-cpp reads it).
      batch.logits[k] = pooling != LLAMA_POOLING_TYPE_NONE || p + 1 == tokens.size();
    }
    last[s] = batch.n_tokens - 1;
  }
  const int32_t rc = llama_decode(c->ctx, batch);
  llama_batch_free(batch);
  job->decodes++;
  if (rc != 0) {
    job->error = "llama_decode failed (" + std::to_string(rc) + ")";
    return false;
  }
  for (size_t s = 0; s < group.size(); s++) {
    const float *v = pooling == LLAMA_POOLING_TYPE_NONE ? nullptr : llama_get_embeddings_seq(c->ctx, static_cast<llama_seq_id>(s));
    if (!v) v = llama_get_embeddings_ith(c->ctx, last[s]);
    if (!v) {
      job->error = "llama.cpp returned no embedding";
      return false;
    }
    job->vectors[group[s]].assign(v, v + c->embd);
  }
  return true;
}

void execute(napi_env, void *data) {
  Job *job = static_cast<Job *>(data);
  Context *c = job->c;
  job->vectors.resize(job->tokens.size());
  // Sequences of one length share a decode. llama.cpp splits a batch over per-sequence KV streams
  // into micro-batches that take the same number of tokens from each sequence: sequences of
  // different lengths would have their tails decoded in later, smaller micro-batches (down to one
  // token: other kernels), and their vectors would not be the bytes of the sequence alone.
  std::map<size_t, std::vector<size_t>> byLength;
  for (size_t i = 0; i < job->tokens.size(); i++) {
    const size_t n = job->tokens[i].size();
    if (!c->packs || n < 2) {
      if (!decodeGroup(job, {i})) return;
    } else {
      byLength[n].push_back(i);
    }
  }
  for (const auto &[n, indices] : byLength) {
    const size_t most = std::max<size_t>(1, std::min<size_t>(c->sequences, c->batchTokens / n));
    for (size_t start = 0; start < indices.size(); start += most) {
      const std::vector<size_t> group(indices.begin() + start, indices.begin() + std::min(indices.size(), start + most));
      if (!decodeGroup(job, group)) return;
    }
  }
}

void complete(napi_env env, napi_status status, void *data) {
  Job *job = static_cast<Job *>(data);
  job->c->busy = false;
  releaseContextIfIdle(job->c); // freed by the engine while this call ran
  napi_value result = nullptr;
  if (status != napi_ok && job->error.empty()) job->error = "the embedding work was cancelled";
  if (job->error.empty()) {
    napi_create_array_with_length(env, job->vectors.size(), &result);
    for (size_t i = 0; i < job->vectors.size(); i++) {
      const auto &v = job->vectors[i];
      void *bytes = nullptr;
      napi_value buffer, array;
      napi_create_arraybuffer(env, v.size() * sizeof(float), &bytes, &buffer);
      if (!v.empty()) memcpy(bytes, v.data(), v.size() * sizeof(float));
      napi_create_typedarray(env, napi_float32_array, v.size(), buffer, 0, &array);
      napi_set_element(env, result, static_cast<uint32_t>(i), array);
    }
    napi_value decodes;
    napi_create_uint32(env, job->decodes, &decodes);
    napi_set_named_property(env, result, "decodes", decodes);
    napi_resolve_deferred(env, job->deferred, result);
  } else {
    napi_value message, error;
    napi_create_string_utf8(env, ("svc embed addon: " + job->error).c_str(), NAPI_AUTO_LENGTH, &message);
    napi_create_error(env, nullptr, message, &error);
    napi_reject_deferred(env, job->deferred, error);
  }
  napi_delete_async_work(env, job->work);
  delete job;
}

// embed(context, tokens: Int32Array[]) -> Promise<Float32Array[] & { decodes }>, off the main thread.
napi_value embed(napi_env env, napi_callback_info cb) {
  size_t argc = 2;
  napi_value argv[2];
  CHECK(napi_get_cb_info(env, cb, &argc, argv, nullptr, nullptr));
  Context *c = unwrap<Context>(env, argv[0]);
  if (!c || !c->ctx || c->released) return throwError(env, "svc embed addon: the context is freed");
  if (c->busy) return throwError(env, "svc embed addon: the context is busy (one call at a time)");
  uint32_t count = 0;
  CHECK(napi_get_array_length(env, argv[1], &count));
  auto *job = new Job();
  job->c = c;
  job->tokens.resize(count);
  const int32_t vocab = llama_vocab_n_tokens(llama_model_get_vocab(c->model));
  for (uint32_t i = 0; i < count; i++) {
    napi_value element;
    napi_typedarray_type type;
    size_t length = 0;
    void *data = nullptr;
    if (napi_get_element(env, argv[1], i, &element) != napi_ok ||
        napi_get_typedarray_info(env, element, &type, &length, &data, nullptr, nullptr) != napi_ok || type != napi_int32_array) {
      delete job;
      return throwError(env, "svc embed addon: tokens[" + std::to_string(i) + "] must be an Int32Array");
    }
    const int32_t *t = static_cast<const int32_t *>(data);
    // Checked here: llama.cpp aborts the process on a token outside the vocabulary or an oversized batch.
    if (length == 0 || length > c->batchTokens) {
      delete job;
      return throwError(env, "svc embed addon: tokens[" + std::to_string(i) + "] must hold 1 to " + std::to_string(c->batchTokens) + " tokens, has " + std::to_string(length));
    }
    for (size_t k = 0; k < length; k++)
      if (t[k] < 0 || t[k] >= vocab) {
        delete job;
        return throwError(env, "svc embed addon: tokens[" + std::to_string(i) + "] holds " + std::to_string(t[k]) + ", outside the vocabulary");
      }
    job->tokens[i].assign(t, t + length);
  }
  napi_value promise, name;
  CHECK(napi_create_promise(env, &job->deferred, &promise));
  CHECK(napi_create_string_utf8(env, "svcEmbed", NAPI_AUTO_LENGTH, &name));
  CHECK(napi_create_async_work(env, nullptr, name, execute, complete, job, &job->work));
  c->busy = true;
  CHECK(napi_queue_async_work(env, job->work));
  return promise;
}

napi_value init(napi_env env, napi_value exports) {
  const napi_property_descriptor properties[] = {
      {"loadModel", nullptr, loadModel, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"freeModel", nullptr, freeModel, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"createContext", nullptr, createContext, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"freeContext", nullptr, freeContext, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"info", nullptr, info, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"embed", nullptr, embed, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof(properties) / sizeof(properties[0]), properties);
  return exports;
}

} // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
