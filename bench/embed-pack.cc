// The measurement behind the embedding addon's packing rule (src/native/embed/batch.cc, docs/
// benchmarks.md "Batched embeddings"): N texts in one llama_decode against one llama_decode each,
// byte for byte and texts/s, straight on node-llama-cpp's prebuilt llama.cpp (no JavaScript).
// Arguments: LIBDIR MODEL N THREADS [FLASH_ATTN 0|1]. PAD=k puts each text in a slot of a multiple
// of k tokens (the rest a filler sequence, so that each text's terms fall in the same SIMD lanes),
// ROUNDS=r times r rounds of each way, BENCHTEXT=1 takes bench/vectorizer.ts's rows.
//
//   bash scripts/build-embed-addon.sh     # also leaves llama.h and ggml's headers in build/embed/include
//   bins=node_modules/@node-llama-cpp/linux-x64/bins/linux-x64
//   g++ -O2 -std=c++17 -Ibuild/embed/include/include -Ibuild/embed/include/ggml/include bench/embed-pack.cc \
//     -L$bins -l:libllama.v0.5.0.so -l:libggml.v0.5.0.so -l:libggml-base.so -Wl,-rpath,$bins -o .tmp/embed-pack
//   BENCHTEXT=1 ROUNDS=40 nice .tmp/embed-pack $bins models/svc-embed.gguf 16 1 0
#include "llama.h"
#include "ggml-backend.h"
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include <chrono>
#include <cmath>

static std::vector<llama_token> tok(const llama_vocab *v, const std::string &s) {
  std::vector<llama_token> t(s.size() + 8);
  int n = llama_tokenize(v, s.c_str(), s.size(), t.data(), t.size(), true, false);
  t.resize(n);
  return t;
}

int main(int argc, char **argv) {
  const char *libdir = argv[1]; const char *path = argv[2]; int nseq = atoi(argv[3]); int threads = atoi(argv[4]);
  int fa = argc > 5 ? atoi(argv[5]) : 0;
  llama_log_set([](ggml_log_level, const char *, void *) {}, nullptr);
  ggml_backend_load_all_from_path(libdir);
  llama_backend_init();
  auto mp = llama_model_default_params();
  llama_model *model = llama_model_load_from_file(path, mp);
  const llama_vocab *vocab = llama_model_get_vocab(model);
  std::vector<std::string> texts;
  const char *base[] = {"The cat sat on the mat.", "a", "Once upon a time there was a little girl named Lily who loved to play outside.",
    "Quantum chromodynamics explains the strong force between quarks and gluons in hadrons, with asymptotic freedom.",
    "hello world", "PostgreSQL stores rows in heap pages; an index points to them.", "x y z", "The quick brown fox jumps over the lazy dog again and again and again."};
  const char *W[] = {"cat","dog","bird","tree","boat","ball","sun","rain","cake","park","fish","star"}; const char *M[] = {"happy","sad","sleepy","brave","small","big","kind"};
  if (getenv("BENCHTEXT")) for (int i = 0; i < nseq; i++) texts.push_back(std::string("Once upon a time there was a ") + M[i%7] + " " + W[(i*7)%12] + " number " + std::to_string(i) + ".");
  else for (int i = 0; i < nseq; i++) texts.push_back(std::string(base[i % 8]) + (i >= 8 ? " " + std::to_string(i) : ""));
  std::vector<std::vector<llama_token>> toks; int total = 0, maxlen = 0;
  for (auto &t : texts) { toks.push_back(tok(vocab, t)); total += toks.back().size(); maxlen = std::max<int>(maxlen, toks.back().size()); }
  auto make = [&](int seqs, int nctx) {
    auto cp = llama_context_default_params();
    cp.n_ctx = nctx; cp.n_batch = nctx; cp.n_ubatch = nctx; cp.n_seq_max = seqs; cp.embeddings = true;
    cp.n_threads = threads; cp.n_threads_batch = threads; cp.kv_unified = false; cp.no_perf = true; cp.swa_full = false;
    cp.flash_attn_type = fa ? LLAMA_FLASH_ATTN_TYPE_ENABLED : LLAMA_FLASH_ATTN_TYPE_DISABLED;
    return llama_init_from_model(model, cp);
  };
  int n_embd = llama_model_n_embd_out(model);
  int PAD = getenv("PAD") ? atoi(getenv("PAD")) : 0;
  auto slot = [&](int i) { int l = toks[i].size(); return PAD ? (l + PAD - 1) / PAD * PAD : l; };
  auto run = [&](llama_context *ctx, int first, int count, std::vector<std::vector<float>> &out) {
    if (llama_get_memory(ctx)) llama_memory_clear(llama_get_memory(ctx), true);
    int n = 0; for (int i = first; i < first + count; i++) n += slot(i);
    llama_batch b = llama_batch_init(n, 0, 1);
    bool none = llama_pooling_type(ctx) == LLAMA_POOLING_TYPE_NONE;
    std::vector<int> last;
    for (int i = first; i < first + count; i++) {
      for (size_t p = 0; p < (size_t)slot(i); p++) {
        bool real = p < toks[i].size();
        b.token[b.n_tokens] = real ? toks[i][p] : 0; b.pos[b.n_tokens] = real ? p : 0; b.n_seq_id[b.n_tokens] = 1;
        b.seq_id[b.n_tokens][0] = real ? i - first : count;
        if (real && p + 1 == toks[i].size()) last.push_back(b.n_tokens);
        b.logits[b.n_tokens] = none ? (real && p + 1 == toks[i].size()) : true; b.n_tokens++;
      }
    }
    int rc = llama_decode(ctx, b);
    if (rc) { fprintf(stderr, "decode %d\n", rc); exit(1); }
    for (int i = first; i < first + count; i++) {
      const float *e = none ? llama_get_embeddings_ith(ctx, last[i - first]) : llama_get_embeddings_seq(ctx, i - first);
      out.push_back(std::vector<float>(e, e + n_embd));
    }
    llama_batch_free(b);
  };
  int nctx1 = ((maxlen + 255) / 256) * 256 + 256;
  llama_context *one = make(2, nctx1 * 2);
  printf("pooling %d n_embd %d tokens %d maxlen %d memory %s\n", llama_pooling_type(one), n_embd, total, maxlen, llama_get_memory(one) ? "yes" : "no");
  std::vector<std::vector<float>> single, batched;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < nseq; i++) run(one, i, 1, single);
  auto t1 = std::chrono::steady_clock::now();
  llama_context *many = make(nseq + 1, nctx1 * (nseq + 1));
  auto t2 = std::chrono::steady_clock::now();
  run(many, 0, nseq, batched);
  auto t3 = std::chrono::steady_clock::now();
  int R = getenv("ROUNDS") ? atoi(getenv("ROUNDS")) : 0;
  if (R) {
    std::vector<std::vector<float>> sink;
    auto a = std::chrono::steady_clock::now();
    for (int r = 0; r < R; r++) for (int i = 0; i < nseq; i++) run(one, i, 1, sink);
    auto b = std::chrono::steady_clock::now();
    for (int r = 0; r < R; r++) run(many, 0, nseq, sink);
    auto c = std::chrono::steady_clock::now();
    double s1 = std::chrono::duration<double>(b - a).count(), s2 = std::chrono::duration<double>(c - b).count();
    printf("rounds %d: one at a time %.0f seq/s, batched %.0f seq/s (%.2fx)\n", R, R * nseq / s1, R * nseq / s2, s1 / s2);
  }
  int same = 0;
  for (int i = 0; i < nseq; i++) {
    bool eq = memcmp(single[i].data(), batched[i].data(), n_embd * 4) == 0;
    same += eq;
    if (!eq) { double md = 0; for (int j = 0; j < n_embd; j++) md = std::max(md, (double)fabs(single[i][j] - batched[i][j])); printf("seq %d (%zu tokens) differs, max |d| %g\n", i, toks[i].size(), md); }
  }
  printf("identical %d/%d; single %.2f ms, batched %.2f ms\n", same, nseq,
    std::chrono::duration<double, std::milli>(t1 - t0).count(), std::chrono::duration<double, std::milli>(t3 - t2).count());
}
