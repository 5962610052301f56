/* Line-start prefilter for codexdoctor.rollouts (optional: setup.py builds it when a compiler is there).

   For every line of a window it answers one question the regex `_SCAN` would otherwise answer by walking each
   line start: may this be a line the reader needs (an envelope whose type, and for event_msg the payload type, is
   one of the wanted names), or is it not a Codex envelope at all (an unreadable line)? Candidates are a superset:
   the regex confirms each one, so the results are the regex's. The wanted names come from Python (`wanted()`). */
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
static const char ORDINAL[] = ",\"ordinal\":";
static const char TYPE[] = ",\"type\":\"";
static const char EVENT[] = "event_msg\",\"payload\":{\"type\":\"";
#define LEN(s) (sizeof(s) - 1)

/* `name"` at p, for one of the names */
static int one_of(const char *p, const char *end, char names[][MAX_NAME + 1], const size_t *lens,
                  const uint32_t *first) {
    if (p >= end) return 0;
    uint32_t candidates = first[(unsigned char)*p];
    for (int i = 0; candidates; i++, candidates >>= 1) {
        if (!(candidates & 1)) continue;
        size_t len = lens[i];
        if ((size_t)(end - p) > len && memcmp(p, names[i], len) == 0 && p[len] == '"') return 1;
    }
    return 0;
}

static int wanted_type(const char *p, const char *end) {
    if (one_of(p, end, tops, top_len, top_first)) return 1;
    if ((size_t)(end - p) < LEN(EVENT) || memcmp(p, EVENT, LEN(EVENT)) != 0) return 0;
    return one_of(p + LEN(EVENT), end, events, event_len, event_first);
}

static int store(PyObject *seq, char names[][MAX_NAME + 1], size_t *lens, int *count, uint32_t *first) {
    PyObject *fast = PySequence_Fast(seq, "a sequence of bytes");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAX_NAMES) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "too many names"); return -1; }
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

/* scan(buffer, start, end) -> (candidate line starts, unreadable line count); buffer[start:end] are whole lines */
static PyObject *scan(PyObject *self, PyObject *args) {
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
        const char *line_end = nl ? nl : stop;
        if ((size_t)(line_end - p) >= LEN(ENVELOPE) && memcmp(p, ENVELOPE, LEN(ENVELOPE)) == 0) {
            const char *q = p + LEN(ENVELOPE);
            size_t room = (size_t)(line_end - q);
            const char *quote = memchr(q, '"', room < 41 ? room : 41);  /* the regex: [^"]{0,40}+" */
            if (quote) {
                q = quote + 1;
                if ((size_t)(line_end - q) >= LEN(ORDINAL) && memcmp(q, ORDINAL, LEN(ORDINAL)) == 0) {
                    q += LEN(ORDINAL);
                    while (q < line_end && *q >= '0' && *q <= '9') q++;
                }
                if ((size_t)(line_end - q) >= LEN(TYPE) && memcmp(q, TYPE, LEN(TYPE)) == 0
                        && wanted_type(q + LEN(TYPE), line_end)) {
                    PyObject *at = PyLong_FromSsize_t(p - base);
                    if (!at || PyList_Append(out, at) < 0) Py_CLEAR(out);
                    Py_XDECREF(at);
                }
            }
        } else if (p < line_end && *p != '\r') {
            bad++;  /* the regex: (?!\{"timestamp":")[^\n\r] */
        }
        if (!nl) break;
        p = nl + 1;
    }
    PyBuffer_Release(&view);
    return out ? Py_BuildValue("(Nn)", out, bad) : NULL;
}

static PyMethodDef methods[] = {
    {"wanted", wanted, METH_VARARGS, "Set the envelope and event types the reader needs."},
    {"scan", scan, METH_VARARGS, "Candidate line starts and the count of lines that are not envelopes."},
    {NULL, NULL, 0, NULL},
};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_linescan", NULL, -1, methods};
PyMODINIT_FUNC PyInit__linescan(void) { return PyModule_Create(&module); }
