package entity_test

import (
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestBindWriterOverModelCases binds the Objects of the model's random
// requests and patches (the FuzzModelRequest corpus, then generated
// cases: random entities of groups, references, lists, formats, versions
// and flags) into the struct expose gen would write for them and into a
// map, through Bind's writer and through encoding/json, which must agree.
func TestBindWriterOverModelCases(t *testing.T) {
	inputs := mdlReadCorpus(t, filepath.Join("testdata", "fuzz", "FuzzModelRequest"))
	r := rand.New(rand.NewPCG(29, 1))
	n := 2000
	if testing.Short() {
		n = 300
	}
	for range n {
		b := make([]byte, 64+r.IntN(448))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		inputs = append(inputs, b)
	}
	compared := 0
	for i, data := range inputs {
		cs, g := mdlGenerateReq(data)
		if cs == nil || cs.mode != "request" && cs.mode != "patch" {
			continue
		}
		var obj *entity.Object
		if cs.mode == "request" {
			_, obj, _ = cs.libRequest(g.lib)
		} else {
			_, obj, _ = cs.libPatch(g.lib)
		}
		if obj == nil {
			continue
		}
		m, err := cs.modelReg()
		if err != nil {
			continue
		}
		st := m.bindStruct(cs.entity, nil, cs.opts.version)
		t.Run(strconv.Itoa(i)+"/"+cs.mode, func(t *testing.T) {
			if st != nil {
				bindBoth(t, obj, func() any { return reflect.New(st).Interface() })
			}
			bindBoth(t, obj, func() any { return &map[string]any{} })
		})
		compared++
	}
	t.Logf("%d of %d cases compared", compared, len(inputs))
	if compared < len(inputs)/20 {
		t.Errorf("only %d of %d cases made an Object to bind", compared, len(inputs))
	}
}
