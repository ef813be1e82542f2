package entity_test

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// nilReceivers holds a nil value of every exported type of package entity
// that has methods on a pointer receiver. TestNilReceiverMethods checks,
// with go/doc, that the list is complete.
var nilReceivers = []any{
	(*entity.Entity)(nil),
	(*entity.Field)(nil),
	(*entity.FieldError)(nil),
	(*entity.InputError)(nil),
	(*entity.LoadError)(nil),
	(*entity.Object)(nil),
	(*entity.PanicError)(nil),
	(*entity.Registry)(nil),
	(*entity.ValidationError)(nil),
}

// pointerMethods lists, by go/doc, the exported methods of package entity
// declared on a pointer receiver, as "Type.Method".
func pointerMethods(t *testing.T) map[string][]string {
	t.Helper()
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/expose-go/expose/entity")
	if err != nil {
		t.Fatal(err)
	}
	methods := map[string][]string{}
	for _, typ := range p.Types {
		spec := typ.Decl.Specs[0].(*ast.TypeSpec)
		for _, m := range typ.Methods {
			if strings.HasPrefix(m.Recv, "*") {
				methods[typ.Name] = append(methods[typ.Name], m.Name)
				continue
			}
			switch spec.Type.(type) { // a value receiver that may be nil
			case *ast.ArrayType, *ast.MapType, *ast.FuncType, *ast.ChanType, *ast.StarExpr:
				t.Errorf("%s.%s: a method on a %T receiver, which may be nil: add a nil value of %s to nilReceivers", typ.Name, m.Name, spec.Type, typ.Name)
			}
		}
	}
	return methods
}

// TestNilReceiverMethods: no exported method of package entity panics on
// a nil receiver, given zero arguments or plausible ones: a Must method
// panics only with its error, which says what is wrong.
func TestNilReceiverMethods(t *testing.T) {
	declared := pointerMethods(t)
	listed := map[string]bool{}
	for _, v := range nilReceivers {
		name := reflect.TypeOf(v).Elem().Name()
		listed[name] = true
		methods, ok := declared[name]
		if !ok {
			t.Errorf("nilReceivers lists %s, which has no method on a pointer receiver", name)
		}
		for _, m := range methods {
			t.Run(name+"."+m, func(t *testing.T) {
				callNil(t, reflect.ValueOf(v), m, reflect.Zero)
				callNil(t, reflect.ValueOf(v), m, plausible)
			})
		}
	}
	for name := range declared {
		if !listed[name] {
			t.Errorf("*%s has exported methods: add (*entity.%s)(nil) to nilReceivers", name, name)
		}
	}
}

// plausible returns a value of type t that a method would take for real:
// a language tag or name for a string, non-nil functions, maps, slices and
// pointers; only interfaces stay nil.
func plausible(t reflect.Type) reflect.Value {
	switch t.Kind() {
	case reflect.String:
		return reflect.ValueOf("en").Convert(t)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return reflect.ValueOf(int64(1)).Convert(t)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return reflect.ValueOf(uint64(1)).Convert(t)
	case reflect.Func:
		return reflect.MakeFunc(t, func([]reflect.Value) []reflect.Value {
			out := make([]reflect.Value, t.NumOut())
			for i := range out {
				out[i] = reflect.Zero(t.Out(i))
			}
			return out
		})
	case reflect.Map:
		return reflect.MakeMap(t)
	case reflect.Slice:
		return reflect.MakeSlice(t, 1, 1)
	case reflect.Pointer:
		return reflect.New(t.Elem())
	}
	return reflect.Zero(t)
}

// callNil calls method m of the nil receiver v with the arguments arg
// gives (no variadic ones), failing the test if it panics.
func callNil(t *testing.T, v reflect.Value, m string, arg func(reflect.Type) reflect.Value) {
	t.Helper()
	f := v.MethodByName(m)
	if !f.IsValid() {
		t.Fatalf("no method %s on %s", m, v.Type())
	}
	ft := f.Type()
	n := ft.NumIn()
	if ft.IsVariadic() {
		n--
	}
	args := make([]reflect.Value, n)
	for i := range args {
		args[i] = arg(ft.In(i))
	}
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		// A Must function panics on an error by design: on a nil receiver
		// with the error that says so, never with a runtime error.
		if _, runtime := p.(error); !runtime && strings.HasPrefix(m, "Must") && strings.HasPrefix(fmt.Sprint(p), "entity: ") {
			return
		}
		t.Errorf("(%s)(nil).%s panics: %v\n%s", v.Type(), m, p, debug.Stack())
	}()
	f.Call(args)
}
