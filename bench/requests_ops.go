package bench

import (
	"errors"
	"net/http"
	"slices"
	"strconv"

	"github.com/expose-go/expose/entity"
)

// The request side's operations, each a function that sends one request
// (the same *http.Request, its body rewound) and reports whether the call
// did what it should. The benchmarks (requests_bench_test.go) time them and
// cmd/opcount runs them under callgrind, so that both measure the same
// code. Each is built for a number of order lines (LineCounts).

// RequestOp is one operation: Run sends the request once and returns an
// error when the outcome is not the expected one (a refusal for the
// failing bodies, a success for the others).
type RequestOp struct {
	Name string
	Run  func() error
}

// RequestOps returns the operations at the given number of order lines,
// in the order the benchmarks run them:
//
//	Bind, MakeRequest            the library on OrderBody(lines)
//	json+validator               DecodeValidate (encoding/json, then the validator)
//	jsonv2, goccy                json v2's and goccy/go-json's Unmarshal alone
//	Bind-failing                 Bind of FailingOrderBody(lines): 3 field errors
//	json+validator-failing       DecodeValidate of the same body
//	handler, huma                POST /orders through the library's handler and huma's
//	Patch, Patch+Bind            Patch of OrderPatch onto StoredOrder(lines), then Bind of the merged value
//	merge+json+validator         MergeDecodeValidate of the same patch and value
func RequestOps(lines int) []RequestOp {
	orders := NewOrderRegistry().MustLookup("order")
	body, failing := OrderBody(lines), FailingOrderBody(lines)
	post := NewRequest(http.MethodPost, "application/json", body)
	postFailing := NewRequest(http.MethodPost, "application/json", failing)
	patch := NewRequest(http.MethodPatch, entity.MergePatchType, []byte(OrderPatch))
	stored, storedWire := StoredOrder(lines), StoredWireOrder(lines)
	ours, huma := NewExposeHandler(orders), NewHumaHandler()
	w := &statusWriter{h: http.Header{}}
	serve := func(h http.Handler, r *Request) error {
		clear(w.h)
		w.status = 0
		h.ServeHTTP(w, r.Reset())
		if w.status != http.StatusCreated {
			return errors.New("status " + strconv.Itoa(w.status) + ", want 201")
		}
		return nil
	}
	return []RequestOp{
		{"Bind", func() error {
			var o OrderRequest
			return orders.Bind(post.Reset(), &o)
		}},
		{"MakeRequest", func() error {
			_, err := orders.MakeRequest(post.Reset())
			return err
		}},
		{"json+validator", func() error {
			var o WireOrder
			return DecodeValidate(post.Reset(), &o)
		}},
		{"jsonv2", func() error {
			var o WireOrder
			return UnmarshalV2(post.Reset(), &o)
		}},
		{"goccy", func() error {
			var o WireOrder
			return UnmarshalGoccy(post.Reset(), &o)
		}},
		{"Bind-failing", func() error {
			var o OrderRequest
			return wantFields(orders.Bind(postFailing.Reset(), &o))
		}},
		{"json+validator-failing", func() error {
			var o WireOrder
			return wantFields(DecodeValidate(postFailing.Reset(), &o))
		}},
		{"handler", func() error { return serve(ours, post) }},
		{"huma", func() error { return serve(huma, post) }},
		{"Patch", func() error {
			_, touched, err := orders.Patch(patch.Reset(), stored)
			if err == nil && len(touched) != len(OrderPatchTouched) {
				return errors.New("Patch touched " + strconv.Itoa(len(touched)) + " fields")
			}
			return err
		}},
		{"Patch+Bind", func() error {
			merged, _, err := orders.Patch(patch.Reset(), stored)
			if err != nil {
				return err
			}
			var o Order
			return merged.Bind(&o)
		}},
		{"merge+json+validator", func() error {
			_, err := MergeDecodeValidate(patch.Reset(), storedWire)
			return err
		}},
	}
}

// LookupRequestOp returns the operation of RequestOps(lines) of that name,
// or nil.
func LookupRequestOp(name string, lines int) func() error {
	ops := RequestOps(lines)
	if i := slices.IndexFunc(ops, func(op RequestOp) bool { return op.Name == name }); i >= 0 {
		return ops[i].Run
	}
	return nil
}

// wantFields returns nil for an error that names FailingOrderPaths' 3
// fields (the library's or a baseline's), else an error saying what came.
func wantFields(err error) error {
	if err == nil {
		return errors.New("no error, want 3 field errors")
	}
	var ve *entity.ValidationError
	if errors.As(err, &ve) {
		if len(ve.Fields) == len(FailingOrderPaths) {
			return nil
		}
	} else if len(FieldPaths(err)) == len(FailingOrderPaths) {
		return nil
	}
	return errors.New("not 3 field errors: " + err.Error())
}

// statusWriter is a ResponseWriter that keeps its header map and the
// status and drops the body, as a server's connection buffers it.
type statusWriter struct {
	h      http.Header
	status int
}

func (w *statusWriter) Header() http.Header { return w.h }
func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}
func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return len(b), nil
}
