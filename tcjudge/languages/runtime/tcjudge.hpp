// The judge's C++ runtime, included before the contestant's file (see tcjudge/languages/cpp.py).
//
// The process it runs in was forked by the zygote, limited, confined and then exec'd: fd 3 is the
// result channel, fd 4 carries one test's arguments (JSON, closed when complete), fds 1 and 2 are
// the captured output. It reads the arguments, calls the method on a fresh instance and writes one
// JSON line on fd 3, the same protocol as the Python child (tcjudge/protocol.py, tcjudge/engine/child.py). Only the
// TopCoder types are read and written: int, long, double, String, boolean, and arrays of them.
// Everything lives in namespace tcjudge; after the contestant's code the generated part only names
// tcjudge:: and the problem's class and method, so their macros cannot change it.
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <exception>
#include <iostream>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include <signal.h>
#include <sys/resource.h>
#include <sys/ucontext.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace tcjudge {

void entry();  // generated after the contestant's code: calls the problem's method

// -- JSON, for exactly the TopCoder types ------------------------------------------------------

struct Value {
    enum Kind { Null, Bool, Number, Text, Array } kind = Null;
    bool flag = false;
    std::string text;  // a number's literal, or a string's decoded bytes (UTF-8)
    std::vector<Value> items;
};

class Parser {
public:
    explicit Parser(const std::string& data) : s(data) {}

    Value document() {
        Value v = value(0);
        space();
        if (i != s.size()) fail("trailing data");
        return v;
    }

private:
    const std::string& s;
    std::size_t i = 0;

    [[noreturn]] void fail(const char* what) { throw std::runtime_error(std::string("judge arguments: ") + what); }

    void space() {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')) ++i;
    }

    bool literal(const char* word) {
        std::size_t n = std::strlen(word);
        if (s.compare(i, n, word) != 0) return false;
        i += n;
        return true;
    }

    Value value(int depth) {
        if (depth > 3) fail("nested too deeply");
        space();
        if (i >= s.size()) fail("unexpected end");
        Value v;
        char c = s[i];
        if (c == '[') {
            v.kind = Value::Array;
            ++i;
            space();
            if (i < s.size() && s[i] == ']') { ++i; return v; }
            for (;;) {
                v.items.push_back(value(depth + 1));
                space();
                if (i < s.size() && s[i] == ',') { ++i; continue; }
                if (i < s.size() && s[i] == ']') { ++i; return v; }
                fail("expected , or ]");
            }
        }
        if (c == '"') { v.kind = Value::Text; v.text = string(); return v; }
        if (literal("true")) { v.kind = Value::Bool; v.flag = true; return v; }
        if (literal("false")) { v.kind = Value::Bool; return v; }
        if (literal("null")) return v;
        std::size_t start = i;
        while (i < s.size() && std::strchr("+-0123456789.eE", s[i])) ++i;
        if (start == i) fail("unexpected character");
        v.kind = Value::Number;
        v.text = s.substr(start, i - start);
        return v;
    }

    unsigned hex4() {
        if (i + 4 > s.size()) fail("short \\u escape");
        unsigned code = 0;
        for (int k = 0; k < 4; ++k) {
            char h = s[i++];
            code <<= 4;
            if (h >= '0' && h <= '9') code |= h - '0';
            else if (h >= 'a' && h <= 'f') code |= h - 'a' + 10;
            else if (h >= 'A' && h <= 'F') code |= h - 'A' + 10;
            else fail("bad \\u escape");
        }
        return code;
    }

    static void utf8(std::string& out, unsigned code) {
        if (code < 0x80) out += char(code);
        else if (code < 0x800) { out += char(0xC0 | code >> 6); out += char(0x80 | (code & 0x3F)); }
        else if (code < 0x10000) {
            out += char(0xE0 | code >> 12); out += char(0x80 | (code >> 6 & 0x3F)); out += char(0x80 | (code & 0x3F));
        } else {
            out += char(0xF0 | code >> 18); out += char(0x80 | (code >> 12 & 0x3F));
            out += char(0x80 | (code >> 6 & 0x3F)); out += char(0x80 | (code & 0x3F));
        }
    }

    std::string string() {
        std::string out;
        ++i;  // the opening quote
        for (;;) {
            if (i >= s.size()) fail("unterminated string");
            char c = s[i++];
            if (c == '"') return out;
            if (c != '\\') { out += c; continue; }
            if (i >= s.size()) fail("unterminated escape");
            char e = s[i++];
            switch (e) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': {
                    unsigned code = hex4();
                    if (code >= 0xD800 && code < 0xDC00 && s.compare(i, 2, "\\u") == 0) {
                        i += 2;
                        unsigned low = hex4();
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                    }
                    utf8(out, code);
                    break;
                }
                default: fail("bad escape");
            }
        }
    }
};

// -- TopCoder types: problem.yaml's names, checked against the contestant's declaration ---------

struct Int {};
struct Long {};
struct Double {};
struct String {};
struct Boolean {};
template <class Element> struct Array {};

template <class Tag, class T> struct fits : std::false_type {};
template <class T> struct fits<Int, T>
    : std::integral_constant<bool, std::is_integral<T>::value && !std::is_same<T, bool>::value && sizeof(T) >= 4> {};
template <class T> struct fits<Long, T>
    : std::integral_constant<bool, std::is_integral<T>::value && !std::is_same<T, bool>::value && sizeof(T) >= 8> {};
template <class T> struct fits<Double, T> : std::is_floating_point<T> {};
template <> struct fits<String, std::string> : std::true_type {};
template <> struct fits<Boolean, bool> : std::true_type {};
template <class E, class T, class A> struct fits<Array<E>, std::vector<T, A>> : fits<E, T> {};

// -- decoding arguments, encoding the returned value -------------------------------------------

[[noreturn]] inline void mismatch(const char* expected) {
    throw std::runtime_error(std::string("judge arguments: expected ") + expected);
}

inline void decode(const Value& v, bool& out) {
    if (v.kind != Value::Bool) mismatch("boolean");
    out = v.flag;
}

inline void decode(const Value& v, std::string& out) {
    if (v.kind != Value::Text) mismatch("String");
    out = v.text;
}

template <class T>
typename std::enable_if<std::is_integral<T>::value>::type decode(const Value& v, T& out) {
    if (v.kind != Value::Number || v.text.find_first_of(".eE") != std::string::npos) mismatch("an integer");
    errno = 0;
    char* end = nullptr;
    long long n = std::strtoll(v.text.c_str(), &end, 10);
    if (errno || *end || n < (long long)std::numeric_limits<T>::min() || n > (long long)std::numeric_limits<T>::max())
        mismatch("an integer in range");
    out = T(n);
}

template <class T>
typename std::enable_if<std::is_floating_point<T>::value>::type decode(const Value& v, T& out) {
    if (v.kind != Value::Number) mismatch("a number");
    out = T(std::strtod(v.text.c_str(), nullptr));
}

template <class T, class A> void decode(const Value& v, std::vector<T, A>& out) {
    if (v.kind != Value::Array) mismatch("an array");
    out.resize(v.items.size());
    for (std::size_t k = 0; k < v.items.size(); ++k) {
        T item;  // not out[k] itself: vector<bool> hands out proxies, not references
        decode(v.items[k], item);
        out[k] = std::move(item);
    }
}

inline void encode(std::string& out, bool b) { out += b ? "true" : "false"; }

inline void encode(std::string& out, const std::string& text) {
    out += '"';
    for (unsigned char c : text) {
        if (c == '"' || c == '\\') { out += '\\'; out += char(c); }
        else if (c < 0x20 || c == 0x7F) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
            out += escaped;
        } else out += char(c);
    }
    out += '"';
}

template <class T>
typename std::enable_if<std::is_integral<T>::value && !std::is_same<T, bool>::value>::type encode(std::string& out, T n) {
    out += std::to_string(n);
}

template <class T>
typename std::enable_if<std::is_floating_point<T>::value>::type encode(std::string& out, T x) {
    double d = double(x);
    if (std::isnan(d)) { out += "NaN"; return; }
    if (std::isinf(d)) { out += d > 0 ? "Infinity" : "-Infinity"; return; }
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", d);
    out += text;
    if (!std::strpbrk(text, ".eE")) out += ".0";  // stays a double on the judge's side
}

template <class T, class A> void encode(std::string& out, const std::vector<T, A>& items) {
    out += '[';
    for (std::size_t k = 0; k < items.size(); ++k) {
        if (k) out += ',';
        encode(out, items[k]);
    }
    out += ']';
}

// -- the channels ------------------------------------------------------------------------------

const int RESULT_FD = 3;
const int ARGS_FD = 4;

inline void flush_output() {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(stdout);
    std::fflush(stderr);
}

// One line on the result channel, then stop: the zygote reads CPU time and peak memory from the
// kernel while this process still exists, then kills it.
[[noreturn]] inline void report(const std::string& line) {
    std::string data = line + "\n";
    const char* p = data.data();
    std::size_t left = data.size();
    while (left) {
        ssize_t n = ::write(RESULT_FD, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        p += n;
        left -= std::size_t(n);
    }
    ::raise(SIGSTOP);
    _exit(0);
}

inline std::string read_arguments() {
    std::string data;
    char buffer[1 << 16];
    for (;;) {
        ssize_t n = ::read(ARGS_FD, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        data.append(buffer, std::size_t(n));
    }
    ::close(ARGS_FD);
    return data;
}

inline std::string error_line(const char* type, const char* message) {
    std::string line = "{\"kind\":\"error\",\"phase\":\"call\",\"type\":";
    encode(line, std::string(type));
    line += ",\"message\":";
    encode(line, std::string(message).substr(0, 300));
    line += ",\"line\":null,\"errno\":null}";
    return line;
}

inline std::string type_name(const std::type_info& type) {
    int status = 0;
    char* name = abi::__cxa_demangle(type.name(), nullptr, nullptr, &status);
    std::string result = status == 0 && name ? name : type.name();
    std::free(name);
    return result;
}

template <class Call> [[noreturn]] void serve(std::size_t arity, Call call) {
    std::string data = read_arguments();
    Value args;
    try {
        args = Parser(data).document();
    } catch (const std::exception& err) {
        report(error_line("JudgeProtocolError", err.what()));
    }
    if (args.kind == Value::Null) report("{\"kind\":\"loaded\"}");  // only checking that it loads
    if (args.kind != Value::Array || args.items.size() != arity)
        report(error_line("JudgeProtocolError", "wrong number of arguments"));
    std::string line = "{\"kind\":\"return\",\"value\":";
    try {
        call(args.items, line);
    } catch (const std::bad_alloc& err) {
        flush_output();
        report(error_line("MemoryError", "std::bad_alloc: out of memory"));  // MLE, as Python's MemoryError
    } catch (const std::exception& err) {
        flush_output();
        report(error_line(type_name(typeid(err)).c_str(), err.what()));
    } catch (...) {
        flush_output();
        std::type_info* type = abi::__cxa_current_exception_type();
        report(error_line(type ? type_name(*type).c_str() : "exception", "an exception that is not a std::exception"));
    }
    flush_output();
    report(line + "}");
}

template <class Tuple, std::size_t... I>
void decode_all(const std::vector<Value>& items, Tuple& args, std::index_sequence<I...>) {
    (void)std::initializer_list<int>{(decode(items[I], std::get<I>(args)), 0)...};
}

// The problem's signature in TopCoder types: `matches` checks the contestant's declaration at
// compile time, `run` decodes the arguments into the parameter types as declared and calls.
template <class Returns, class... Params> struct Signature {
    template <class C, class R, class... P> static constexpr bool matches(R (C::*)(P...)) { return agree<R, P...>(); }
    template <class C, class R, class... P> static constexpr bool matches(R (C::*)(P...) const) { return agree<R, P...>(); }
    template <class R, class... P> static constexpr bool matches(R (*)(P...)) { return agree<R, P...>(); }

    template <class C, class R, class... P> [[noreturn]] static void run(R (C::*method)(P...)) {
        call<C, R, P...>([method](C& object, typename std::decay<P>::type&... a) { return (object.*method)(a...); });
    }
    template <class C, class R, class... P> [[noreturn]] static void run(R (C::*method)(P...) const) {
        call<C, R, P...>([method](C& object, typename std::decay<P>::type&... a) { return (object.*method)(a...); });
    }
    template <class R, class... P> [[noreturn]] static void run(R (*method)(P...)) {  // a static method
        call<Nothing, R, P...>([method](Nothing&, typename std::decay<P>::type&... a) { return method(a...); });
    }

private:
    struct Nothing {};

    template <class R, class... P> static constexpr bool agree() {
        return sizeof...(P) == sizeof...(Params) && fits<Returns, typename std::decay<R>::type>::value &&
               all(fits<Params, typename std::decay<P>::type>::value...);
    }
    static constexpr bool all() { return true; }
    template <class... B> static constexpr bool all(bool first, B... rest) { return first && all(rest...); }

    template <class C, class R, class... P, class Invoke> [[noreturn]] static void call(Invoke invoke) {
        serve(sizeof...(P), [&invoke](const std::vector<Value>& items, std::string& line) {
            std::tuple<typename std::decay<P>::type...> args;
            decode_all(items, args, std::index_sequence_for<P...>{});
            std::unique_ptr<C> object(new C());  // a fresh instance per test, as TopCoder's
            encode(line, apply(invoke, *object, args, std::index_sequence_for<P...>{}));
        });
    }

    template <class Invoke, class C, class Tuple, std::size_t... I>  // std::apply is C++17; this also builds as C++14
    static auto apply(Invoke& invoke, C& object, Tuple& args, std::index_sequence<I...>) {
        return invoke(object, std::get<I>(args)...);
    }
};

// -- a crash's evidence ------------------------------------------------------------------------
//
// waitid tells the zygote only that the process died by SIGSEGV; where the fault struck is known
// inside the process alone. A handler on a stack of its own looks at the kernel's fault: its
// address below the stack's top by at most the stack's limit (RLIMIT_STACK) plus the kernel's guard
// gap (below the stack, the kernel grows it on any access until the limit or the guard gap forbids,
// so a fault there is the stack at its limit), or the stack pointer itself past the limit (a frame
// larger than the guard gap: gcc inlines a recursive function into itself, and one 512 KiB array
// became a 4.5 MiB frame). Then it writes STACK_LIMIT_LINE (tcjudge/protocol.py) on the crash
// channel, and in any case re-raises: the default action, restored on entry (SA_RESETHAND), ends
// the process by the same signal, so the kernel's facts of its death are unchanged. A null pointer,
// a freed pointer or an invalidated iterator faults elsewhere and leaves no line: no hint.

const int CRASH_FD = 5;
const std::uintptr_t STACK_GUARD_GAP = std::uintptr_t(1) << 20;  // Linux's default stack_guard_gap: 256 pages
static std::uintptr_t stack_top = 0, stack_reach = 0;
alignas(16) static char fault_stack[1 << 16];  // the handler's own stack: the faulting one may be full

inline std::uintptr_t stack_pointer(const void* context) {  // at the fault; 0 where unknown
    const ucontext_t* state = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
    return std::uintptr_t(state->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
    return std::uintptr_t(state->uc_mcontext.sp);
#else
    (void)state;
    return 0;
#endif
}

inline void on_fault(int signal_number, siginfo_t* info, void* context) {
    std::uintptr_t at = reinterpret_cast<std::uintptr_t>(info->si_addr), sp = stack_pointer(context);
    bool at_limit = (at < stack_top && stack_top - at <= stack_reach) ||
                    (sp && sp < stack_top && stack_top - sp > stack_reach - STACK_GUARD_GAP);
    if (info->si_code > 0 && at_limit) {  // > 0: the kernel's own fault, not a signal someone sent
        static const char line[] = "tcjudge: SIGSEGV at the stack's limit\n";
        ssize_t written = ::write(CRASH_FD, line, sizeof line - 1);
        (void)written;
    }
    ::raise(signal_number);  // delivered on return, by the default action
}

inline void watch_stack(const void* top) {
    rlimit limit;
    if (::getrlimit(RLIMIT_STACK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return;
    stack_top = reinterpret_cast<std::uintptr_t>(top);
    stack_reach = std::uintptr_t(limit.rlim_cur) + STACK_GUARD_GAP;
    stack_t alternate = {};
    alternate.ss_sp = fault_stack;
    alternate.ss_size = sizeof fault_stack;
    if (::sigaltstack(&alternate, nullptr) != 0) return;
    struct sigaction action = {};
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGSEGV, &action, nullptr);
}

}  // namespace tcjudge

int main() {
    int top = 0;  // the stack's top, near enough: only the environment and the C library's start lie above
    tcjudge::watch_stack(&top);
    tcjudge::entry();
    return 0;
}
