package engine

import (
	"fmt"
	"strings"

	"github.com/expose-go/expose/rules"
)

// Transforms: the rules.Defs with a Transform (trim, lower, upper, a
// user's own) change a value field's converted value before its checks,
// and the field writes what they return. They run in resolve (the general
// path) and, when they are all StringTransformers, in appendFast; a field
// without transforms pays one length test for them.

// xform is one compiled transform.
type xform struct {
	t       rules.Transformer
	st      rules.StringTransformer // t, when it is one; else nil
	noPanic bool                    // see rules.Def.NoPanic
	info    *ruleInfo
}

func newXform(info *ruleInfo, t rules.Transformer, noPanic bool) xform {
	st, _ := t.(rules.StringTransformer)
	return xform{t: t, st: st, noPanic: noPanic, info: info}
}

// compileTransform calls a rule's Transform, turning a panic in user code
// into an error.
func compileTransform(def *rules.Def, args []string, typ rules.Kind) (rules.Transformer, error) {
	return compileGuarded(def.Transform, args, typ, "its Transform returned no Transformer")
}

// stringXforms reports whether every transform of n can change a bare
// string, so that a string field keeps its fast path.
func stringXforms(n *node) bool {
	for _, x := range n.xforms {
		if x.st == nil {
			return false
		}
	}
	return true
}

// transformDefault applies n's transforms to a value outside a run: a
// default at compile time, a value a tool gives Field.Transform. The text
// it returns is its own.
func transformDefault(n *node, v rules.Value) (rules.Value, error) {
	var buf []byte
	for _, x := range n.xforms {
		var err error
		if v, buf, err = runTransform(x, v, buf); err != nil {
			return v, fmt.Errorf("rule %q: %w", x.info.code, err)
		}
	}
	if len(buf) > 0 && v.Kind == rules.String {
		v.Str = strings.Clone(v.Str)
	}
	return v, nil
}
