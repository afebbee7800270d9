// Spindle's compiled-code cache for Node (docs/HOST.md, "Compiled-code cache"): V8 can serialize a
// compiled WebAssembly.Module and load that machine code again in a later process, but Node
// offers neither to JavaScript. This addon gives the host these calls, written against V8's own
// embedder API, so it is built once per Node ABI (scripts/build-code-cache-addon.sh):
//   serialize(module) -> Buffer | null   the module's compiled code, as V8 writes it
//   compile(wire, code, took?) -> Promise<Module>
//                                          through V8's streaming compile, which takes the cached
//                                          code when V8 accepts it, else compiles `wire`; took[0]
//                                          (a Uint8Array) is set to 1 where V8 accepted the code
//                                          (its header: V8's version, CPU features and flags), 0
//                                          where it compiled instead, before the promise settles
//   sha256(...parts) -> Buffer              the SHA-256 of the parts' bytes, one after another:
//                                          OpenSSL's, which Node carries, without loading node:crypto
//                                          (17 of Node's modules, a few ms of every start)
//   setStackLimit(kib) -> true              this thread's V8 stack reaches `kib` KiB below the
//                                          caller's frame: what --stack-size gives, without a V8
//                                          flag (cli/common/main-stack.js checks the thread has it)
//   stackRlimitKib() -> number              the soft RLIMIT_STACK in KiB (-1: unlimited), which
//                                          /proc/self/limits says at a file's read and parse
// V8 uses the code only where its header (V8's version, CPU features and flags) matches its own;
// the host checks the file's integrity before it calls compile, and learns from `took` whether
// the code was used or the module compiled (and is to be stored again) (host/code-cache/).
#include <node.h>
#include <node_buffer.h>
#include <v8.h>

#include <sys/resource.h>

#include <cstdint>
#include <map>
#include <memory>

// OpenSSL's SHA-256, exported by every Node binary for addons (declared here, not from Node's
// OpenSSL headers, whose configuration differs per build).
extern "C" {
struct SpindleSha256State {
    unsigned int h[8], nl, nh, data[16], num, md_len;
};
int SHA256_Init(SpindleSha256State *c);
int SHA256_Update(SpindleSha256State *c, const void *data, size_t len);
int SHA256_Final(unsigned char *md, SpindleSha256State *c);
}

namespace {

using v8::FunctionCallbackInfo;
using v8::Isolate;
using v8::Local;
using v8::Value;

// What compile() hands to V8's streaming callback: the wire bytes and the cached code, copied,
// because V8 may read the code until the streaming compile finishes.
struct PendingCompile {
    std::unique_ptr<uint8_t[]> wire;
    size_t wire_size = 0;
    std::unique_ptr<uint8_t[]> code;
    size_t code_size = 0;
  // where V8's answer goes (took[0]), kept alive until it is written; null: not asked
    std::shared_ptr<v8::BackingStore> took;
    size_t took_offset = 0;
    void answer(bool used) const
    {
        if (took)
            static_cast<uint8_t *>(took->Data())[took_offset] = used ? 1 : 0;
    }
};

// V8 calls the streaming callback from a promise job, after compile() has returned, with the
// argument compile() passed: a number that names the job here. Per isolate, so per thread.
thread_local std::map<uint32_t, std::unique_ptr<PendingCompile>> pending;
thread_local uint32_t last_job = 0;

bool copy_bytes(Local<Value> value, std::unique_ptr<uint8_t[]> &out, size_t &size)
{
    if (!value->IsArrayBufferView())
        return false;
    auto view = value.As<v8::ArrayBufferView>();
    size = view->ByteLength();
    out.reset(new uint8_t[size ? size : 1]);
    view->CopyContents(out.get(), size);
    return true;
}

void throw_type_error(Isolate *isolate, const char *text)
{
    isolate->ThrowException(
        v8::Exception::TypeError(v8::String::NewFromUtf8(isolate, text).ToLocalChecked()));
}

std::unique_ptr<PendingCompile> take_job(Local<Value> id)
{
    if (!id->IsUint32())
        return nullptr;
    auto found = pending.find(id.As<v8::Uint32>()->Value());
    if (found == pending.end())
        return nullptr;
    std::unique_ptr<PendingCompile> job = std::move(found->second);
    pending.erase(found);
    return job;
}

// V8 calls this for WebAssembly.compileStreaming(); only compile() below calls that, with a job's
// number. Any other caller is refused: this isolate's compileStreaming is the cache's.
void on_streaming(const FunctionCallbackInfo<Value> &info)
{
    Isolate *isolate = info.GetIsolate();
    std::shared_ptr<v8::WasmStreaming> streaming = v8::WasmStreaming::Unpack(isolate, info.Data());
    std::unique_ptr<PendingCompile> job = take_job(info[0]);
    if (!job) {
        streaming->Abort(v8::Exception::TypeError(
            v8::String::NewFromUtf8(
                isolate, "WebAssembly.compileStreaming is used by Spindle's code cache in this process")
                .ToLocalChecked()));
        return;
    }
#if V8_MAJOR_VERSION >= 14
  // V8 14 (Node 26) asks for the cached code inside Finish, after it has every wire byte; a
  // header V8 does not accept makes it compile the wire bytes instead, as before.
  // Without code V8 takes no callback (it compiles while the bytes stream in).
    const bool has_code = job->code_size > 0;
    if (has_code)
        streaming->SetHasCompiledModuleBytes();
    streaming->OnBytesReceived(job->wire.get(), job->wire_size);
    const PendingCompile *cached = job.get();
    cached->answer(false);
    if (!has_code) {
        streaming->Finish({});
    } else {
        streaming->Finish([cached](v8::WasmStreaming::ModuleCachingInterface &cache) {
            cached->answer(cache.SetCachedCompiledModuleBytes(
                v8::MemorySpan<const uint8_t>(cached->code.get(), cached->code_size)));
        });
    }
#else
  // (V8 checks the header here; a file that passed it and the host's checksum deserializes)
    bool has_code = job->code_size > 0 && streaming->SetCompiledModuleBytes(job->code.get(), job->code_size);
    job->answer(has_code);
    streaming->OnBytesReceived(job->wire.get(), job->wire_size);
    streaming->Finish(has_code);
#endif
  // V8 has copied or used both buffers by the end of Finish (it deserializes or starts compiling
  // from its own copy of the wire bytes), so they may go now.
}

void compile(const FunctionCallbackInfo<Value> &info)
{
    Isolate *isolate = info.GetIsolate();
    auto job = std::make_unique<PendingCompile>();
    if (!copy_bytes(info[0], job->wire, job->wire_size))
        return throw_type_error(isolate, "compile: wire bytes must be a Uint8Array");
    if (!info[1]->IsNullOrUndefined() && !copy_bytes(info[1], job->code, job->code_size)) {
        return throw_type_error(isolate, "compile: code must be a Uint8Array or null");
    }
    if (info.Length() > 2 && !info[2]->IsUndefined()) {
        if (!info[2]->IsUint8Array() || info[2].As<v8::Uint8Array>()->ByteLength() < 1) {
            return throw_type_error(isolate, "compile: took must be a Uint8Array of at least one byte");
        }
        auto took = info[2].As<v8::Uint8Array>();
    // (a resizable buffer could shrink before V8 answers, and its pages go with it)
        if (took->Buffer()->GetBackingStore()->IsResizableByUserJavaScript()) {
            return throw_type_error(isolate, "compile: took must not be a resizable buffer");
        }
        job->took = took->Buffer()->GetBackingStore();
        job->took_offset = took->ByteOffset();
    }
    isolate->SetWasmStreamingCallback(on_streaming);
    Local<v8::Context> context = isolate->GetCurrentContext();
    Local<v8::Object> global = context->Global();
    Local<Value> wasm, compile_streaming;
    if (!global->Get(context, v8::String::NewFromUtf8Literal(isolate, "WebAssembly")).ToLocal(&wasm) ||
        !wasm->IsObject() ||
        !wasm.As<v8::Object>()
             ->Get(context, v8::String::NewFromUtf8Literal(isolate, "compileStreaming"))
             .ToLocal(&compile_streaming) ||
        !compile_streaming->IsFunction()) {
        return throw_type_error(isolate, "compile: this V8 has no WebAssembly.compileStreaming");
    }
    uint32_t id = ++last_job;
    pending[id] = std::move(job);
    Local<Value> argv[] = {v8::Integer::NewFromUnsigned(isolate, id)};
    Local<Value> promise;
    if (compile_streaming.As<v8::Function>()->Call(context, wasm, 1, argv).ToLocal(&promise)) {
        info.GetReturnValue().Set(promise);
    } else {
        pending.erase(id);  // the call threw: V8 will not ask for this job
    }
}

void serialize(const FunctionCallbackInfo<Value> &info)
{
    Isolate *isolate = info.GetIsolate();
    if (!info[0]->IsWasmModuleObject())
        return throw_type_error(isolate, "serialize: not a WebAssembly.Module");
    v8::OwnedBuffer code = info[0].As<v8::WasmModuleObject>()->GetCompiledModule().Serialize();
    if (!code.buffer || code.size == 0)
        return info.GetReturnValue().SetNull();
    Local<v8::Object> buffer;
    if (node::Buffer::Copy(isolate, reinterpret_cast<const char *>(code.buffer.get()), code.size)
            .ToLocal(&buffer)) {
        info.GetReturnValue().Set(buffer);
    }
}

void sha256(const FunctionCallbackInfo<Value> &info)
{
    Isolate *isolate = info.GetIsolate();
    SpindleSha256State state;
    SHA256_Init(&state);
    for (int i = 0; i < info.Length(); i++) {
        if (!info[i]->IsArrayBufferView())
            return throw_type_error(isolate, "sha256: every part must be a Uint8Array");
        auto view = info[i].As<v8::ArrayBufferView>();
        auto *data = static_cast<const uint8_t *>(view->Buffer()->Data()) + view->ByteOffset();
        SHA256_Update(&state, data, view->ByteLength());
    }
    unsigned char digest[32];
    SHA256_Final(digest, &state);
    Local<v8::Object> buffer;
    if (node::Buffer::Copy(isolate, reinterpret_cast<const char *>(digest), sizeof digest).ToLocal(&buffer))
        info.GetReturnValue().Set(buffer);
}

// V8 takes the lowest address the stack may grow to; a frame's address here is a few hundred
// bytes below the JavaScript that called, so the limit is measured from it.
void set_stack_limit(const FunctionCallbackInfo<Value> &info)
{
    Isolate *isolate = info.GetIsolate();
    if (!info[0]->IsUint32() || info[0].As<v8::Uint32>()->Value() < 1024 ||
        info[0].As<v8::Uint32>()->Value() > 1024 * 1024) {
        return throw_type_error(isolate, "setStackLimit: KiB must be an integer from 1024 to 1048576");
    }
    volatile char here = 0;
    auto top = reinterpret_cast<uintptr_t>(&here);
    isolate->SetStackLimit(top - uintptr_t{info[0].As<v8::Uint32>()->Value()} * 1024);
    info.GetReturnValue().Set(true);
}

void stack_rlimit_kib(const FunctionCallbackInfo<Value> &info)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_STACK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return info.GetReturnValue().Set(-1);
    info.GetReturnValue().Set(static_cast<double>(limit.rlim_cur / 1024));
}

void initialize(Local<v8::Object> exports, Local<Value>, Local<v8::Context>, void *)
{
    NODE_SET_METHOD(exports, "compile", compile);
    NODE_SET_METHOD(exports, "serialize", serialize);
    NODE_SET_METHOD(exports, "sha256", sha256);
    NODE_SET_METHOD(exports, "setStackLimit", set_stack_limit);
    NODE_SET_METHOD(exports, "stackRlimitKib", stack_rlimit_kib);
}

}  // namespace

NODE_MODULE_CONTEXT_AWARE(NODE_GYP_MODULE_NAME, initialize)
