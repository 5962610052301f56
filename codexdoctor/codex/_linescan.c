/* Line scanner for codexdoctor.rollouts (optional: setup.py builds it when a compiler is there).

   `lines` does the work of the regex `_SCAN` at every line start of a window, in C: is this a line the reader
   needs (an envelope whose type, and for event_msg the payload type, is one of the wanted names), or not a Codex
   envelope at all (an unreadable line, counted)? For each line `_SCAN` takes it gives the line itself (to be
   parsed as JSON), or, for a token_count line in Codex's own shape (the regex's `_TOKEN_TAIL`), the timestamp and
   the usage numbers. It follows the pattern's grammar term by term, possessive quantifiers included, and a test
   compares the two on generated lines. A number of more than 18 digits is handed back as the line's offset:
   Python's regex path reads it. The wanted names come from Python (`wanted()`). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_NAMES 32
#define MAX_NAME 48

static char tops[MAX_NAMES][MAX_NAME + 1], events[MAX_NAMES][MAX_NAME + 1];
static size_t top_len[MAX_NAMES], event_len[MAX_NAMES];
static int n_tops = 0, n_events = 0;
/* For each first byte, the names that start with it (bit i: name i). Most lines are a type no name starts with
   (response_item, agent_message_delta): one table load rejects them, where comparing each name cost 3x the scan. */
static uint32_t top_first[256], event_first[256];

static const char ENVELOPE[] = "{\"timestamp\":\"";
static const char EVENT[] = "event_msg\",\"payload\":{\"type\":\"";
#define LEN(s) (sizeof(s) - 1)

/* `name"` at p, for one of the names: the length of `name"`, 0 for none */
static size_t one_of(const char *p, const char *end, char names[][MAX_NAME + 1], const size_t *lens,
                     const uint32_t *first) {
    if (p >= end) return 0;
    uint32_t candidates = first[(unsigned char)*p];
    for (int i = 0; candidates; i++, candidates >>= 1) {
        if (!(candidates & 1)) continue;
        size_t len = lens[i];
        if ((size_t)(end - p) > len && memcmp(p, names[i], len) == 0 && p[len] == '"') return len + 1;
    }
    return 0;
}

static int store(PyObject *seq, char names[][MAX_NAME + 1], size_t *lens, int *count, uint32_t *first) {
    PyObject *fast = PySequence_Fast(seq, "a sequence of bytes");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAX_NAMES) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "too many names"); return -1; }
    *count = 0;  /* a failure below leaves no names rather than half of them */
    memset(first, 0, 256 * sizeof(uint32_t));
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        char *data; Py_ssize_t len;
        if (PyBytes_AsStringAndSize(item, &data, &len) < 0 || len > MAX_NAME || len < 1) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a name must be 1 to 48 bytes");
            return -1;
        }
        memcpy(names[i], data, (size_t)len);
        lens[i] = (size_t)len;
        first[(unsigned char)data[0]] |= (uint32_t)1 << i;
    }
    *count = (int)n;
    Py_DECREF(fast);
    return 0;
}

/* wanted(top_level_types, event_types): the names the reader needs, set once at import */
static PyObject *wanted(PyObject *self, PyObject *args) {
    PyObject *t, *e;
    if (!PyArg_ParseTuple(args, "OO", &t, &e)) return NULL;
    if (store(t, tops, top_len, &n_tops, top_first) < 0 || store(e, events, event_len, &n_events, event_first) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* the literal s at *q (within stop): step over it */
static int lit(const char **q, const char *stop, const char *s, size_t n) {
    if ((size_t)(stop - *q) < n || memcmp(*q, s, n) != 0) return 0;
    *q += n;
    return 1;
}
#define LIT(q, stop, s) lit(q, stop, s, LEN(s))

/* \d++ : one or more digits, their value in *out; more than 18 digits sets *big (the value is then not used) */
static int digits(const char **q, const char *stop, long long *out, int *big) {
    const char *r = *q;
    long long v = 0;
    int n = 0;
    while (r < stop && *r >= '0' && *r <= '9') {
        if (n < 18) v = v * 10 + (*r - '0');
        n++;
        r++;
    }
    if (n == 0) return 0;
    if (n > 18) *big = 1;
    *out = v;
    *q = r;
    return 1;
}

/* (?:"cache_write_input_tokens":\d++,)?+ */
static void cache_write(const char **q, const char *stop) {
    const char *r = *q;
    long long ignored;
    int big = 0;
    if (LIT(&r, stop, "\"cache_write_input_tokens\":") && digits(&r, stop, &ignored, &big) && LIT(&r, stop, ",")) *q = r;
}

/* rollouts._TOKEN_TAIL at q: the eight usage numbers and the window (v[8]; *null when it is null) */
static int token_tail(const char *q, const char *stop, long long v[9], int *null, int *big) {
    if (!LIT(&q, stop, ",\"info\":{\"total_token_usage\":{\"input_tokens\":") || !digits(&q, stop, &v[0], big)) return 0;
    if (!LIT(&q, stop, ",\"cached_input_tokens\":") || !digits(&q, stop, &v[1], big) || !LIT(&q, stop, ",")) return 0;
    cache_write(&q, stop);
    if (!LIT(&q, stop, "\"output_tokens\":") || !digits(&q, stop, &v[2], big)) return 0;
    if (!LIT(&q, stop, ",\"reasoning_output_tokens\":") || !digits(&q, stop, &v[3], big)) return 0;
    if (!LIT(&q, stop, ",\"total_tokens\":") || !digits(&q, stop, &v[4], big)) return 0;
    if (!LIT(&q, stop, "},\"last_token_usage\":{\"input_tokens\":") || !digits(&q, stop, &v[5], big)) return 0;
    if (!LIT(&q, stop, ",\"cached_input_tokens\":") || !digits(&q, stop, &v[6], big) || !LIT(&q, stop, ",")) return 0;
    cache_write(&q, stop);
    if (!LIT(&q, stop, "\"output_tokens\":") || !digits(&q, stop, &v[7], big) || !LIT(&q, stop, ",")) return 0;
    while (q < stop && *q != '{' && *q != '}') q++;  /* [^{}]*+\} : may run past the line, as the regex does */
    if (q >= stop || *q != '}') return 0;
    q++;
    for (;;) {  /* (?:,"(?!model_context_window")[a-z_]++":(?:true|false|null|\d++))*+ */
        const char *r = q, *key;
        long long ignored;
        int ignored_big = 0;
        if (!LIT(&r, stop, ",\"")) break;
        if ((size_t)(stop - r) >= LEN("model_context_window\"") && memcmp(r, "model_context_window\"", LEN("model_context_window\"")) == 0) break;
        key = r;
        while (r < stop && ((*r >= 'a' && *r <= 'z') || *r == '_')) r++;
        if (r == key || !LIT(&r, stop, "\":")) break;
        if (!LIT(&r, stop, "true") && !LIT(&r, stop, "false") && !LIT(&r, stop, "null") && !digits(&r, stop, &ignored, &ignored_big)) break;
        q = r;
    }
    if (!LIT(&q, stop, ",\"model_context_window\":")) return 0;
    *null = 0;
    if (!digits(&q, stop, &v[8], big)) {
        if (!LIT(&q, stop, "null")) return 0;
        *null = 1;
    }
    return q < stop && (*q == ',' || *q == '}');
}

/* Is the line at p (line_end: its newline or the window's end) one `_SCAN` takes? Then *after points just past
   the quote that closes its type name, where the regex tries `_TOKEN_TAIL` (for every wanted type, as it does). */
static int envelope(const char *p, const char *line_end, const char **ts_end, const char **after) {
    const char *q = p + LEN(ENVELOPE), *quote;
    size_t room, name;
    long long ignored;
    int big = 0;
    if ((size_t)(line_end - p) < LEN(ENVELOPE) || memcmp(p, ENVELOPE, LEN(ENVELOPE)) != 0) return 0;
    room = (size_t)(line_end - q);
    quote = memchr(q, '"', room < 41 ? room : 41);  /* [^"]{0,40}+" */
    if (!quote) return 0;
    *ts_end = quote;
    q = quote + 1;
    if (!LIT(&q, line_end, ",")) return 0;
    if (LIT(&q, line_end, "\"ordinal\":") && !(digits(&q, line_end, &ignored, &big) && LIT(&q, line_end, ","))) return 0;
    if (!LIT(&q, line_end, "\"type\":\"")) return 0;
    if ((name = one_of(q, line_end, tops, top_len, top_first)) == 0) {
        if (!LIT(&q, line_end, EVENT) || (name = one_of(q, line_end, events, event_len, event_first)) == 0) return 0;
    }
    *after = q + name;
    return 1;
}

/* rollouts._plain: a timestamp taken as it is (printable ASCII, no backslash); any other goes to the JSON parse */
static int plain(const char *p, const char *end) {
    for (; p < end; p++)
        if (*p < 0x20 || *p > 0x7e || *p == '\\') return 0;
    return 1;
}

/* lines(buffer, start, end) -> (items, unreadable line count), in line order. An item is the line's bytes (parse
   it), a tuple (timestamp bytes, total in/cached/out/reasoning/total, last in/cached/out, window or None) for a
   token_count line in Codex's shape, or the line's offset (a number too large here: let the regex read it). */
static PyObject *lines(PyObject *self, PyObject *args) {
    Py_buffer view;
    Py_ssize_t start, end;
    if (!PyArg_ParseTuple(args, "y*nn", &view, &start, &end)) return NULL;
    if (start < 0 || end > view.len || start > end) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "range outside the buffer");
        return NULL;
    }
    const char *base = (const char *)view.buf, *p = base + start, *stop = base + end;
    PyObject *out = PyList_New(0);
    Py_ssize_t bad = 0;
    while (out && p < stop) {
        const char *nl = memchr(p, '\n', (size_t)(stop - p));
        const char *line_end = nl ? nl : stop, *ts_end = NULL, *after = NULL;
        int kind = envelope(p, line_end, &ts_end, &after);
        PyObject *item = NULL;
        if (kind) {
            long long v[9] = {0};
            int null = 0, big = 0;
            if (!token_tail(after, stop, v, &null, &big) || !plain(p + LEN(ENVELOPE), ts_end)) {
                item = PyBytes_FromStringAndSize(p, line_end - p);
            } else if (big) {
                item = PyLong_FromSsize_t(p - base);
            } else {
                PyObject *window = null ? (Py_INCREF(Py_None), Py_None) : PyLong_FromLongLong(v[8]);
                item = window ? Py_BuildValue("(y#LLLLLLLLN)", p + LEN(ENVELOPE), (Py_ssize_t)(ts_end - p - LEN(ENVELOPE)),
                                              v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], window) : NULL;
            }
        } else if (p < line_end && *p != '\r' && !((size_t)(line_end - p) >= LEN(ENVELOPE) && memcmp(p, ENVELOPE, LEN(ENVELOPE)) == 0)) {
            bad++;  /* the regex: (?!\{"timestamp":")[^\n\r] */
        }
        if (kind && (!item || PyList_Append(out, item) < 0)) Py_CLEAR(out);
        Py_XDECREF(item);
        if (!nl) break;
        p = nl + 1;
    }
    PyBuffer_Release(&view);
    return out ? Py_BuildValue("(Nn)", out, bad) : NULL;
}

static PyMethodDef methods[] = {
    {"wanted", wanted, METH_VARARGS, "Set the envelope and event types the reader needs."},
    {"lines", lines, METH_VARARGS, "The lines the reader needs, token counts read out, and the count of lines that are not envelopes."},
    {NULL, NULL, 0, NULL},
};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_linescan", NULL, -1, methods};
PyMODINIT_FUNC PyInit__linescan(void) { return PyModule_Create(&module); }
