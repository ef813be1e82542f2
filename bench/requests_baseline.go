package bench

import (
	"context"
	stdjson "encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"regexp"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
	jsonpatch "github.com/evanphx/json-patch/v5"
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-playground/validator/v10"
	goccy "github.com/goccy/go-json"

	"github.com/expose-go/expose/entity"
)

// The request side's baselines: what a Go team writes for the create
// request of testdata/orders.entity without the library. The wire form
// (WireOrder) is decoded by encoding/json and checked by
// go-playground/validator with the same rules as struct tags (DecodeValidate),
// or decoded alone by encoding/json/v2 or goccy/go-json; the same operation
// is served by huma v2 (NewHumaHandler); a PATCH is an RFC 7396 merge of the
// stored value's JSON, then decoded and checked again (MergeDecodeValidate).

// BodyLimit is the body limit every baseline sets, the library's default
// (entity.Limits.BodyBytes).
const BodyLimit = 1 << 20

// WireOrder is the create request in the wire form, for encoding/json and
// the validator: testdata/orders.entity's rules as struct tags.
type WireOrder struct {
	Name    string      `json:"name" validate:"required,min=1,max=100"`
	Email   string      `json:"email" validate:"required,email"`
	Age     *int64      `json:"age" validate:"omitempty,min=0,max=150"`
	Tags    []string    `json:"tags" validate:"max=10,dive,min=1,max=20"`
	Address WireAddress `json:"address" validate:"required"`
	Lines   []WireLine  `json:"lines" validate:"max=200,dive"`
}

// WireAddress is the order's address group.
type WireAddress struct {
	Street string `json:"street" validate:"required,min=1,max=100"`
	City   string `json:"city" validate:"required,min=1,max=50"`
	Zip    string `json:"zip" validate:"required,min=1,max=10"`
}

// WireLine is one order line; the validator has no regex tag, so the SKU's
// pattern is a registered validation, "sku".
type WireLine struct {
	Sku string `json:"sku" validate:"required,sku"`
	Qty int64  `json:"qty" validate:"required,min=1,max=99"`
}

var skuPattern = regexp.MustCompile(`^[A-Z0-9-]{3,20}$`)

// Validate is the validator the baselines share, as a program holds one:
// errors named by json tags, `required` on a struct meaning "sent", and the
// SKU pattern registered.
var Validate = func() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			return ""
		}
		return name
	})
	if err := v.RegisterValidation("sku", func(fl validator.FieldLevel) bool {
		return skuPattern.MatchString(fl.Field().String())
	}); err != nil {
		panic(err)
	}
	return v
}()

// readBody reads a request body of at most BodyLimit bytes into a slice of
// its stated length, as a careful handler does before an Unmarshal.
func readBody(r *http.Request) ([]byte, error) {
	body := http.MaxBytesReader(nil, r.Body, BodyLimit)
	if r.ContentLength <= 0 || r.ContentLength > BodyLimit {
		return io.ReadAll(body)
	}
	b := make([]byte, r.ContentLength)
	n, err := io.ReadFull(body, b)
	return b[:n], err
}

// DecodeValidate is the usual handler's start: encoding/json's Decoder on
// the limited body, then the validator.
func DecodeValidate(r *http.Request, v *WireOrder) error {
	if err := stdjson.NewDecoder(http.MaxBytesReader(nil, r.Body, BodyLimit)).Decode(v); err != nil {
		return err
	}
	return Validate.Struct(v)
}

// UnmarshalV2 reads the body and decodes it with encoding/json/v2 (the
// go-json-experiment module), checking nothing.
func UnmarshalV2(r *http.Request, v *WireOrder) error {
	b, err := readBody(r)
	if err != nil {
		return err
	}
	return jsonv2.Unmarshal(b, v)
}

// UnmarshalGoccy reads the body and decodes it with goccy/go-json,
// checking nothing.
func UnmarshalGoccy(r *http.Request, v *WireOrder) error {
	b, err := readBody(r)
	if err != nil {
		return err
	}
	return goccy.Unmarshal(b, v)
}

// MergeDecodeValidate applies the request's body, an RFC 7396 merge patch,
// to the stored value (evanphx/json-patch's MergePatch of its JSON), then
// decodes and checks the merged document as DecodeValidate does.
func MergeDecodeValidate(r *http.Request, stored *WireOrder) (*WireOrder, error) {
	patch, err := readBody(r)
	if err != nil {
		return nil, err
	}
	doc, err := stdjson.Marshal(stored)
	if err != nil {
		return nil, err
	}
	merged, err := jsonpatch.MergePatch(doc, patch)
	if err != nil {
		return nil, err
	}
	var out WireOrder
	if err := stdjson.Unmarshal(merged, &out); err != nil {
		return nil, err
	}
	if err := Validate.Struct(&out); err != nil {
		return nil, err
	}
	return &out, nil
}

// StoredWireOrder is StoredOrder(lines) in the wire form.
func StoredWireOrder(lines int) *WireOrder {
	o := StoredOrder(lines)
	w := &WireOrder{Name: o.Name, Email: o.Email, Age: o.Age, Tags: o.Tags,
		Address: WireAddress{Street: o.Street, City: o.City, Zip: o.Zip}, Lines: make([]WireLine, len(o.Lines))}
	for i, l := range o.Lines {
		w.Lines[i] = WireLine(l)
	}
	return w
}

// FieldPaths returns the paths of the fields an error of a baseline names,
// in the library's form ("lines[1].sku"): a validator's field errors, or
// the field of an encoding/json type error. It returns nil for any other
// error.
func FieldPaths(err error) []string {
	var ve validator.ValidationErrors
	if errors.As(err, &ve) {
		paths := make([]string, len(ve))
		for i, fe := range ve {
			_, paths[i], _ = strings.Cut(fe.Namespace(), ".") // without the struct's own name
		}
		return paths
	}
	var te *stdjson.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return []string{te.Field}
	}
	return nil
}

// Huma's form of the same operation: the order as its request and response
// body, the rules as huma's schema tags. Unknown keys are allowed (the
// library ignores them, as encoding/json does), and a field is required
// unless it says otherwise, as huma does.

// HumaOrder is the create request's body for huma.
type HumaOrder struct {
	_       struct{}    `additionalProperties:"true"`
	Name    string      `json:"name" minLength:"1" maxLength:"100"`
	Email   string      `json:"email" format:"email"`
	Age     *int64      `json:"age" required:"false" minimum:"0" maximum:"150"`
	Tags    []string    `json:"tags" required:"false" maxItems:"10" minLength:"1" maxLength:"20"`
	Address HumaAddress `json:"address"`
	Lines   []HumaLine  `json:"lines" required:"false" maxItems:"200"`
}

// HumaAddress is the order's address group for huma.
type HumaAddress struct {
	_      struct{} `additionalProperties:"true"`
	Street string   `json:"street" minLength:"1" maxLength:"100"`
	City   string   `json:"city" minLength:"1" maxLength:"50"`
	Zip    string   `json:"zip" minLength:"1" maxLength:"10"`
}

// HumaLine is one order line for huma.
type HumaLine struct {
	_   struct{} `additionalProperties:"true"`
	Sku string   `json:"sku" pattern:"^[A-Z0-9-]{3,20}$"`
	Qty int64    `json:"qty" minimum:"1" maximum:"99"`
}

type humaCreate struct{ Body HumaOrder }

// NewHumaHandler returns huma's POST /orders on an http.ServeMux (the humago
// adapter): it reads and validates the order and answers 201 with it. The
// configuration is huma's default without its create hook, which would add
// a "$schema" member and a Link header to every response, so that both
// sides answer the same bytes' worth.
func NewHumaHandler() http.Handler {
	mux := http.NewServeMux()
	config := huma.DefaultConfig("orders", "1.0.0")
	config.CreateHooks = nil
	api := humago.New(mux, config)
	huma.Register(api, huma.Operation{OperationID: "create-order", Method: http.MethodPost, Path: "/orders", DefaultStatus: http.StatusCreated},
		func(_ context.Context, in *humaCreate) (*humaCreate, error) {
			return &humaCreate{Body: in.Body}, nil
		})
	return mux
}

// NewExposeHandler returns the library's POST /orders on an http.ServeMux:
// Bind into the struct `expose gen` writes, then WriteStatus 201 of it
// through the same entity's response view.
func NewExposeHandler(orders *entity.Entity) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /orders", func(w http.ResponseWriter, r *http.Request) {
		var o OrderRequest
		if err := orders.Bind(r, &o); err != nil {
			entity.WriteError(w, err)
			return
		}
		_ = orders.WriteStatus(w, http.StatusCreated, &o)
	})
	return mux
}
