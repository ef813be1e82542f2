package entity_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// streamRow is a struct element of the streaming tests.
type streamRow struct {
	ID   int64  `json:"id"`
	Mail string `json:"mail"`
}

// exposeRow declares the element entity of the streaming tests.
func exposeRow(t testing.TB) *entity.Entity {
	t.Helper()
	return expose(t, entity.NewRegistry(), "row",
		"id", "number", "req | rename 'number'",
		"mail", "string", "email",
		"tag", "string", "default 'x' | lazy",
	)
}

// rowMaps returns a sequence of n map rows: row i has id i+1 and a mail
// of its own, but row bad (when bad >= 0), whose mail is not one.
func rowMaps(n, bad int) iter.Seq2[map[string]any, error] {
	good := make([]map[string]any, 16)
	for i := range good {
		good[i] = map[string]any{"id": i + 1, "mail": "u" + strconv.Itoa(i) + "@example.com"}
	}
	broken := map[string]any{"id": 0, "mail": "secret-not-a-mail"}
	return func(yield func(map[string]any, error) bool) {
		for i := range n {
			m := good[i%len(good)]
			if i == bad {
				m = broken
			}
			if !yield(m, nil) {
				return
			}
		}
	}
}

// seqOf returns a sequence of the values given.
func seqOf[T any](vs ...T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for _, v := range vs {
			if !yield(v, nil) {
				return
			}
		}
	}
}

// failingSeq yields the n elements of seq, then err.
func failingSeq[T any](seq iter.Seq2[T, error], n int, err error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		i := 0
		for v, e := range seq {
			if i == n {
				var zero T
				yield(zero, err)
				return
			}
			if !yield(v, e) {
				return
			}
			i++
		}
	}
}

// streamed is what one form of a stream wrote.
type streamed struct {
	body    []byte
	status  int         // a ResponseWriter's
	header  http.Header // a ResponseWriter's, as it was when the status was sent
	flushes int
	err     error
}

// seqRecorder is an http.ResponseWriter that records the header as it was
// when the status was sent, and counts flushes.
type seqRecorder struct {
	h       http.Header
	first   http.Header
	status  int
	body    bytes.Buffer
	flushes int
}

func newSeqRecorder() *seqRecorder { return &seqRecorder{h: http.Header{}} }

func (w *seqRecorder) Header() http.Header { return w.h }
func (w *seqRecorder) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
		w.first = w.h.Clone()
	}
}
func (w *seqRecorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	return w.body.Write(b)
}
func (w *seqRecorder) Flush() { w.flushes++ }

// flushWriter is an io.Writer that is an http.Flusher, and no
// ResponseWriter.
type flushWriter struct {
	body    bytes.Buffer
	flushes int
}

func (w *flushWriter) Write(b []byte) (int, error) { return w.body.Write(b) }
func (w *flushWriter) Flush()                      { w.flushes++ }

// streamForm is one way of streaming: EncodeSeq into an io.Writer, or into
// an http.ResponseWriter, as a JSON array or as NDJSON.
type streamForm struct {
	name   string
	http   bool
	ndjson bool
}

var streamForms = []streamForm{
	{"io.Writer", false, false},
	{"ResponseWriter", true, false},
	{"ResponseWriter NDJSON", true, true},
}

// stream writes seq in form f, bound to ctx.
func stream[T any](f streamForm, ctx context.Context, e *entity.Entity, seq iter.Seq2[T, error], opts ...entity.Option) streamed {
	opts = append(slices.Clip(opts), entity.WithContext(ctx))
	if !f.http {
		w := &flushWriter{}
		err := entity.EncodeSeq(w, e, seq, opts...)
		return streamed{body: w.body.Bytes(), flushes: w.flushes, err: err}
	}
	w := newSeqRecorder()
	if f.ndjson {
		w.h.Set("Content-Type", "application/x-ndjson")
	}
	err := entity.EncodeSeq(w, e, seq, opts...)
	return streamed{body: w.body.Bytes(), status: w.status, header: w.first, flushes: w.flushes, err: err}
}

// lines splits NDJSON into its lines, checking that each ends with "\n".
func lines(t testing.TB, b []byte) []string {
	t.Helper()
	if len(b) == 0 {
		return nil
	}
	if b[len(b)-1] != '\n' {
		t.Errorf("NDJSON does not end with a newline: %q", clip(string(b[max(0, len(b)-80):])))
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// TestEncodeSeqWritesEachElement checks that every form writes what
// AppendJSON writes of the list (the array) or of each element (NDJSON),
// for every kind of element.
func TestEncodeSeqWritesEachElement(t *testing.T) {
	e := exposeRow(t)
	maps := []map[string]any{{"id": "1", "mail": "a@x.io"}, {"id": 2, "mail": "b@x.io", "tag": "t"}}
	rows := []streamRow{{1, "a@x.io"}, {2, "b@x.io"}}
	raws := [][]byte{[]byte(`{"id":1,"mail":"a@x.io"}`), []byte(` {"id":2,"mail":"b@x.io"} `)}
	rawList := []byte("[" + string(raws[0]) + "," + string(raws[1]) + "]")
	obj, err := e.Make(maps[0])
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		list  any // what AppendJSON makes the same elements from
		write func(f streamForm, opts ...entity.Option) streamed
	}{
		{"maps", maps, func(f streamForm, opts ...entity.Option) streamed {
			return stream(f, context.Background(), e, seqOf(maps...), opts...)
		}},
		{"structs", rows, func(f streamForm, opts ...entity.Option) streamed {
			return stream(f, context.Background(), e, seqOf(rows...), opts...)
		}},
		{"struct pointers", rows, func(f streamForm, opts ...entity.Option) streamed {
			return stream(f, context.Background(), e, seqOf(&rows[0], &rows[1]), opts...)
		}},
		{"raw JSON", rawList, func(f streamForm, opts ...entity.Option) streamed {
			return stream(f, context.Background(), e, seqOf(raws...), opts...)
		}},
		{"json.RawMessage", rawList, func(f streamForm, opts ...entity.Option) streamed {
			return stream(f, context.Background(), e, seqOf(json.RawMessage(raws[0]), json.RawMessage(raws[1])), opts...)
		}},
		{"interfaces", []any{maps[0], rows[1]}, func(f streamForm, opts ...entity.Option) streamed {
			return stream(f, context.Background(), e, seqOf[any](maps[0], rows[1]), opts...)
		}},
		{"Objects", []any{obj, obj}, func(f streamForm, opts ...entity.Option) streamed {
			return stream(f, context.Background(), e, seqOf(obj, obj), opts...)
		}},
		{"nil elements", []any{nil, &rows[0], (*streamRow)(nil), (*entity.Object)(nil), maps[1]}, func(f streamForm, opts ...entity.Option) streamed {
			return stream(f, context.Background(), e, seqOf[any](nil, &rows[0], (*streamRow)(nil), (*entity.Object)(nil), maps[1]), opts...)
		}},
		{"nil struct pointers", []*streamRow{nil, &rows[1], nil}, func(f streamForm, opts ...entity.Option) streamed {
			return stream(f, context.Background(), e, seqOf(nil, &rows[1], nil), opts...)
		}},
		{"empty", []any{}, func(f streamForm, opts ...entity.Option) streamed {
			return stream(f, context.Background(), e, seqOf[map[string]any](), opts...)
		}},
		{"nil sequence", []any{}, func(f streamForm, opts ...entity.Option) streamed {
			return stream[map[string]any](f, context.Background(), e, nil, opts...)
		}},
	}
	shapes := []struct {
		name string
		opts []entity.Option
	}{
		{"no options", nil},
		{"a selection", []entity.Option{entity.Select("mail,tag")}},
	}
	for _, tt := range tests {
		for _, sh := range shapes {
			for _, f := range streamForms {
				t.Run(tt.name+"/"+sh.name+"/"+f.name, func(t *testing.T) {
					got := tt.write(f, sh.opts...)
					if got.err != nil {
						t.Fatal(got.err)
					}
					want, err := e.AppendJSON(nil, tt.list, sh.opts...)
					if err != nil {
						t.Fatal(err)
					}
					if f.ndjson {
						var elems []json.RawMessage
						if err := json.Unmarshal(want, &elems); err != nil {
							t.Fatal(err)
						}
						var b []byte
						for _, el := range elems {
							b = append(append(b, el...), '\n')
						}
						want = b
					}
					if !bytes.Equal(got.body, want) {
						t.Errorf("wrote %s\nwant  %s", got.body, want)
					}
					if f.http {
						ct := "application/json; charset=utf-8"
						if f.ndjson {
							ct = "application/x-ndjson"
						}
						if got.status != http.StatusOK || got.header.Get("Content-Type") != ct {
							t.Errorf("status %d, Content-Type %q; want 200, %q", got.status, got.header.Get("Content-Type"), ct)
						}
						if cl := got.header.Get("Content-Length"); cl != strconv.Itoa(len(want)) {
							t.Errorf("a stream that fits in one chunk: Content-Length %q, want %d", cl, len(want))
						}
					}
				})
			}
		}
	}
}

// checkCut checks what a client got of a stream that stopped after its
// complete elements, whole is what the form writes of them: those
// elements whole, then no closing "]" (the array) or a problem line
// (NDJSON) of status, which says nothing of secret.
func checkCut(t testing.TB, f streamForm, got streamed, whole []byte, status int, secret string) {
	t.Helper()
	if json.Valid(got.body) {
		t.Errorf("the output parses as complete JSON: %s", clip(string(got.body[max(0, len(got.body)-200):])))
	}
	if f.http && (got.status != http.StatusOK || got.header.Get("Content-Length") != "") {
		t.Errorf("status %d, Content-Length %q: want 200 sent before the failure, no length", got.status, got.header.Get("Content-Length"))
	}
	if secret != "" && bytes.Contains(got.body, []byte(secret)) {
		t.Errorf("the output holds %q", secret)
	}
	rest, ok := bytes.CutPrefix(got.body, whole)
	if !ok {
		i := 0
		for i < min(len(whole), len(got.body)) && whole[i] == got.body[i] {
			i++
		}
		t.Fatalf("the output is not the elements before the failure: at byte %d, %q, want %q", i,
			clip(string(got.body[i:min(len(got.body), i+80)])), clip(string(whole[i:min(len(whole), i+80)])))
	}
	if !f.ndjson {
		if len(rest) > 0 {
			t.Errorf("after the whole elements: %q", clip(string(rest)))
		}
		if !json.Valid(append(bytes.Clone(got.body), ']')) {
			t.Errorf("the output with a closing ] is no array: an element is not whole")
		}
		return
	}
	last, ok := bytes.CutSuffix(rest, []byte("\n"))
	if !ok || bytes.Contains(last, []byte("\n")) {
		t.Fatalf("after the whole elements: %q, want one problem line", clip(string(rest)))
	}
	var p map[string]any
	if err := json.Unmarshal(last, &p); err != nil {
		t.Fatalf("the last line is no JSON: %s", last)
	}
	if p["status"] != float64(status) || p["type"] != "about:blank" || p["title"] == "" || p["detail"] == "" {
		t.Errorf("problem line %s, want the problem details of a %d", last, status)
	}
	if _, ok := p["instance"].(string); status == 500 && (!ok || len(p) != 5) {
		t.Errorf("problem line %s: a 500 says type, title, status, detail and instance, nothing more", last)
	}
}

// wholeRows returns what form f writes of the first n elements of
// rowMaps: the array without its "]", or n lines.
func wholeRows(t testing.TB, f streamForm, e *entity.Entity, n int) []byte {
	t.Helper()
	list := make([]any, 0, n)
	for m := range rowMaps(n, -1) {
		list = append(list, m)
	}
	b, err := e.AppendJSON(nil, list)
	if err != nil {
		t.Fatal(err)
	}
	b = b[:len(b)-1]
	if !f.ndjson {
		return b
	}
	b = b[1:] // the elements, each a line: none holds "},{" but between elements
	b = bytes.ReplaceAll(b, []byte("},{"), []byte("}\n{"))
	if n > 0 {
		b = append(b, '\n')
	}
	return b
}

// cutAt is the element a stream fails at in TestEncodeSeqStopsOnFailure:
// the 700,001st (fewer under the race detector, still many chunks).
func cutAt() int {
	if raceEnabled || testing.Short() {
		return 20_000
	}
	return 700_000
}

// TestEncodeSeqStopsOnFailure checks what a client sees when element
// 700,001 fails its entity, or the sequence fails there: every element
// before it whole, no output that parses as a complete array, NDJSON ended
// by a problem line that says nothing of the cause; the error returned, a
// 500 ValidationError at the element's index for the element.
func TestEncodeSeqStopsOnFailure(t *testing.T) {
	e := exposeRow(t)
	n := cutAt()
	dbErr := errors.New("db at 10.0.0.5: connection reset")
	for _, f := range streamForms {
		t.Run("element fails/"+f.name, func(t *testing.T) {
			got := stream(f, context.Background(), e, rowMaps(n+10, n))
			var ve *entity.ValidationError
			if !errors.As(got.err, &ve) || ve.StatusCode() != 500 || len(ve.Fields) != 1 {
				t.Fatalf("error %v, want a ValidationError of one field, status 500", got.err)
			}
			if fe := ve.Fields[0]; fe.Path != fmt.Sprintf("[%d].mail", n) || fe.Pointer != fmt.Sprintf("/%d/mail", n) {
				t.Errorf("field error at %q (%q), want the element's index", fe.Path, fe.Pointer)
			}
			checkCut(t, f, got, wholeRows(t, f, e, n), 500, "secret-not-a-mail")
		})
		t.Run("sequence fails/"+f.name, func(t *testing.T) {
			got := stream(f, context.Background(), e, failingSeq(rowMaps(n+10, -1), n, dbErr))
			if !errors.Is(got.err, dbErr) {
				t.Fatalf("error %v, want the sequence's", got.err)
			}
			checkCut(t, f, got, wholeRows(t, f, e, n), 500, "10.0.0.5")
		})
	}
}

// TestEncodeSeqFailsBeforeSending checks a failure within the first
// chunk: into an io.Writer, EncodeSeq writes what it has, cut as ever; into
// a ResponseWriter, whose status is not sent yet, it answers as Write
// does: problem details alone.
// TestEncodeSeqErrorPathsCountSkippedElements: an element's error is at
// its index in the sequence, the nil elements before it counted, as a
// list's error is at its index in the list.
func TestEncodeSeqErrorPathsCountSkippedElements(t *testing.T) {
	e := exposeRow(t)
	bad := map[string]any{"mail": "a@x.io"} // no id: req fails
	for _, tt := range []struct {
		name string
		list []any
	}{
		{"a nil interface before", []any{nil, bad}},
		{"nil pointers before", []any{(*streamRow)(nil), (*streamRow)(nil), bad}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, listErr := e.AppendJSON(nil, tt.list)
			seqErr := entity.EncodeSeq(io.Discard, e, seqOf(tt.list...))
			var lv, sv *entity.ValidationError
			if !errors.As(listErr, &lv) || !errors.As(seqErr, &sv) {
				t.Fatalf("list: %v; sequence: %v", listErr, seqErr)
			}
			got, want := sv.Fields[len(sv.Fields)-1], lv.Fields[len(lv.Fields)-1]
			if got.Path != want.Path || got.OutputPath != want.OutputPath {
				t.Errorf("the sequence's error is at %q (output %q), the list's at %q (%q)", got.Path, got.OutputPath, want.Path, want.OutputPath)
			}
		})
	}
}

func TestEncodeSeqFailsBeforeSending(t *testing.T) {
	e := exposeRow(t)
	for _, f := range streamForms {
		t.Run(f.name, func(t *testing.T) {
			got := stream(f, context.Background(), e, rowMaps(10, 3))
			var ve *entity.ValidationError
			if !errors.As(got.err, &ve) || ve.StatusCode() != 500 {
				t.Fatalf("error %v, want the server's ValidationError", got.err)
			}
			if !f.http {
				checkCut(t, f, got, wholeRows(t, f, e, 3), 500, "secret-not-a-mail")
				return
			}
			rec := httptest.NewRecorder()
			rec.Code = got.status
			maps := got.header.Clone()
			for k, v := range maps {
				rec.Header()[k] = v
			}
			rec.Body = bytes.NewBuffer(got.body)
			if pb, ok := checkProblem(t, rec, 500); ok && pb.Errors != nil {
				t.Errorf("a 500 lists its fields: %s", got.body)
			}
		})
	}
}

// TestEncodeSeqSendsHeaderFirst checks that a long stream sends its
// status and Content-Type before its first byte, in chunks, each flushed.
func TestEncodeSeqSendsHeaderFirst(t *testing.T) {
	e := exposeRow(t)
	for _, f := range streamForms {
		t.Run(f.name, func(t *testing.T) {
			got := stream(f, context.Background(), e, rowMaps(20_000, -1))
			if got.err != nil {
				t.Fatal(got.err)
			}
			if chunks := len(got.body) / (32 << 10); got.flushes < chunks {
				t.Errorf("%d flushes for %d bytes, want one per 32 KiB chunk at least", got.flushes, len(got.body))
			}
			if f.ndjson {
				if n := len(lines(t, got.body)); n != 20_000 {
					t.Errorf("%d lines, want 20000", n)
				}
			} else if !json.Valid(got.body) {
				t.Errorf("invalid JSON")
			}
			if !f.http {
				return
			}
			ct := "application/json; charset=utf-8"
			if f.ndjson {
				ct = "application/x-ndjson"
			}
			if got.status != 200 || got.header.Get("Content-Type") != ct || got.header.Get("Content-Length") != "" {
				t.Errorf("first byte sent with status %d, header %v; want 200, Content-Type %q, no length", got.status, got.header, ct)
			}
		})
	}
}

// TestEncodeSeqStopsWithContext checks that a stream given WithContext
// stops when the context is done: the output cut as for any failure, the
// context's error returned, the sequence left.
func TestEncodeSeqStopsWithContext(t *testing.T) {
	e := exposeRow(t)
	for _, f := range streamForms {
		t.Run(f.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			pulled := 0
			seq := func(yield func(map[string]any, error) bool) {
				for m := range rowMaps(1_000_000, -1) {
					pulled++
					if pulled == 10_001 {
						cancel()
					}
					if !yield(m, nil) {
						return
					}
				}
			}
			got := stream(f, ctx, e, seq)
			if !errors.Is(got.err, context.Canceled) {
				t.Fatalf("error %v, want context.Canceled", got.err)
			}
			if pulled != 10_001 {
				t.Errorf("pulled %d elements, want 10001: the stream goes on after its context is done", pulled)
			}
			checkCut(t, f, got, wholeRows(t, f, e, 10_000), 500, "")
		})
	}
}

// failWriter fails every write after the first n bytes.
type failWriter struct {
	n   int
	err error
}

func (w *failWriter) Write(b []byte) (int, error) {
	if w.n < len(b) {
		return 0, w.err
	}
	w.n -= len(b)
	return len(b), nil
}

// TestEncodeSeqStopsWhenWriterFails checks that a writer's error ends the
// stream: returned, and the sequence left at once.
func TestEncodeSeqStopsWhenWriterFails(t *testing.T) {
	e := exposeRow(t)
	gone := errors.New("broken pipe")
	pulled := 0
	seq := func(yield func(map[string]any, error) bool) {
		for m := range rowMaps(1_000_000, -1) {
			pulled++
			if !yield(m, nil) {
				return
			}
		}
	}
	err := entity.EncodeSeq(&failWriter{n: 100 << 10, err: gone}, e, seq)
	if !errors.Is(err, gone) {
		t.Fatalf("error %v, want the writer's", err)
	}
	if pulled > 20_000 {
		t.Errorf("pulled %d elements after the writer failed", pulled)
	}
}

// TestEncodeSeqRefusesBadOptions checks that an option that fails the call
// fails it before anything is written: into a ResponseWriter, with its
// problem details.
func TestEncodeSeqRefusesBadOptions(t *testing.T) {
	e := exposeRow(t)
	tests := []struct {
		name   string
		opt    entity.Option
		status int
		is     error
	}{
		{"a spec that does not parse", entity.Select("mail("), 400, entity.ErrInvalidFields},
		{"an unknown field", entity.Select("nope"), 400, entity.ErrInvalidFields},
		{"a malformed version", entity.Version("two"), 400, entity.ErrInvalidVersion},
		{"an undeclared flag", entity.With("admin"), 500, entity.ErrUnknownFlag},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := entity.EncodeSeq(&buf, e, rowMaps(3, -1), tt.opt); !errors.Is(err, tt.is) || buf.Len() > 0 {
				t.Errorf("io.Writer: error %v after %q, want %v before anything", err, buf.Bytes(), tt.is)
			}
			rec := httptest.NewRecorder()
			if err := entity.EncodeSeq(rec, e, rowMaps(3, -1), tt.opt); !errors.Is(err, tt.is) {
				t.Errorf("ResponseWriter: error %v, want %v", err, tt.is)
			}
			checkProblem(t, rec, tt.status)
		})
	}
}

// TestEncodeSeqKeepsContentType checks that a Content-Type the handler
// set is the response's: application/x-ndjson chooses NDJSON, any other is
// kept over a JSON array.
func TestEncodeSeqKeepsContentType(t *testing.T) {
	e := exposeRow(t)
	tests := []struct {
		name, set, want string
		ndjson          bool
	}{
		{"none", "", "application/json; charset=utf-8", false},
		{"NDJSON", "application/x-ndjson", "application/x-ndjson", true},
		{"NDJSON with a parameter", "Application/X-NDJSON; charset=utf-8", "Application/X-NDJSON; charset=utf-8", true},
		{"another JSON type", "application/vnd.api+json", "application/vnd.api+json", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			if tt.set != "" {
				rec.Header().Set("Content-Type", tt.set)
			}
			if err := entity.EncodeSeq(rec, e, rowMaps(2, -1)); err != nil {
				t.Fatal(err)
			}
			want := `[{"number":1,"mail":"u0@example.com"},{"number":2,"mail":"u1@example.com"}]`
			if tt.ndjson {
				want = "{\"number\":1,\"mail\":\"u0@example.com\"}\n{\"number\":2,\"mail\":\"u1@example.com\"}\n"
			}
			if ct := rec.Header().Get("Content-Type"); rec.Code != 200 || ct != tt.want || rec.Body.String() != want {
				t.Errorf("status %d, Content-Type %q, body %s; want 200, %q, %s", rec.Code, ct, rec.Body, tt.want, want)
			}
		})
	}
}

// TestEncodeSeqNil checks the calls that have nothing to stream with: an
// error, no panic.
func TestEncodeSeqNil(t *testing.T) {
	e := exposeRow(t)
	var none *entity.Entity
	noPanic(t, "EncodeSeq", func() {
		if err := entity.EncodeSeq(io.Discard, none, rowMaps(1, -1)); !errors.Is(err, entity.ErrUnknownEntity) {
			t.Errorf("nil entity: %v", err)
		}
		if err := entity.EncodeSeq(nil, e, rowMaps(1, -1)); err == nil {
			t.Errorf("nil writer: no error")
		}
		rec := httptest.NewRecorder()
		if err := entity.EncodeSeq(rec, none, rowMaps(1, -1)); !errors.Is(err, entity.ErrUnknownEntity) || rec.Code != 500 {
			t.Errorf("ResponseWriter, nil entity: %v, status %d", err, rec.Code)
		}
	})
}
