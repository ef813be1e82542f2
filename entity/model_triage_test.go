package entity_test

// TestModelRequestTriage groups the disagreements FuzzModelRequest
// collected (-model.collect) by what makes them go away: each transform
// leaves a feature out of the case, or says it another way (a directive
// dropped from the declarations, DenyUnknown, the request's repeated keys,
// a parameter's ".0", the request's flags given by WithContext…), and a
// disagreement is filed under the transforms after which the library and
// the model agree ("(none)" when no single one does). It reads the files
// again with the generator of today, so that a class is what the model and
// the library do now.
//
//	go test -run TestModelRequestTriage ./entity -model.triage /tmp/found -v

import (
	"flag"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

var (
	mdlTriageFlag = flag.String("model.triage", "", "TestModelRequestTriage: the corpus directory of disagreements to group")
	mdlTriageMax  = flag.Int("model.triagemax", 3000, "TestModelRequestTriage: how many of its files to read, evenly spread")
	mdlTriageShow = flag.String("model.triageshow", "", "TestModelRequestTriage: print the reports of this group's files (\"request: (none)\")")
)

// mdlStripRules drops the rules named from every declaration.
func mdlStripRules(cs *mdlCase, words ...string) {
	for i := range cs.decls {
		t := cs.decls[i].triples
		for j := len(t) % 3; j+2 < len(t); j += 3 {
			var keep []string
			for _, r := range strings.Split(t[j+2], "|") {
				w, _, _ := strings.Cut(strings.TrimSpace(r), " ")
				drop := false
				for _, x := range words {
					drop = drop || strings.EqualFold(w, x)
				}
				if !drop && strings.TrimSpace(r) != "" {
					keep = append(keep, strings.TrimSpace(r))
				}
			}
			t[j+2] = strings.Join(keep, " | ")
		}
	}
}

var mdlDotZero = regexp.MustCompile(`^(-?[0-9]+)\.0+$`)

// mdlTriageTransforms each leave one feature out of a case; f reports
// whether the case had it.
var mdlTriageTransforms = []struct {
	name string
	f    func(cs *mdlCase) bool
}{
	{"ctx-flags", func(cs *mdlCase) bool {
		if cs.parts == nil || !cs.parts.hasCtx {
			return false
		}
		cs.opts.hasCtx = true
		cs.opts.ctxFlags = append(append([]string(nil), cs.opts.ctxFlags...), cs.parts.ctxFlags...)
		return true
	}},
	{"lazy", func(cs *mdlCase) bool { mdlStripRules(cs, "lazy"); return true }},
	{"writeonly", func(cs *mdlCase) bool { mdlStripRules(cs, "writeonly"); return true }},
	{"readonly", func(cs *mdlCase) bool { mdlStripRules(cs, "readonly"); return true }},
	{"omit", func(cs *mdlCase) bool { mdlStripRules(cs, "omitempty", "omitnil"); return true }},
	{"cross", func(cs *mdlCase) bool {
		mdlStripRules(cs, "required_if", "required_with", "required_without", "excluded_with")
		return true
	}},
	{"msg", func(cs *mdlCase) bool { mdlStripRules(cs, "msg"); return true }},
	{"secret", func(cs *mdlCase) bool { mdlStripRules(cs, "secret"); return true }},
	{"deny", func(cs *mdlCase) bool { c := cs.opts.deny; cs.opts.deny = false; return c }},
	{"default", func(cs *mdlCase) bool { mdlStripRules(cs, "default"); return true }},
	{"dupkeys", func(cs *mdlCase) bool {
		if cs.parts == nil || !cs.parts.hasBody {
			return false
		}
		js, err := mdlParseJSON([]byte(cs.parts.body))
		if err != nil {
			return false
		}
		var canon func(v *mdlJSON) []byte
		canon = func(v *mdlJSON) []byte {
			switch v.kind {
			case mdlJObj:
				b := []byte{'{'}
				for i, k := range v.keys {
					if i > 0 {
						b = append(b, ',')
					}
					b = mdlEncodeString(b, k)
					b = append(b, ':')
					b = append(b, canon(v.obj[k])...)
				}
				return append(b, '}')
			case mdlJArr:
				b := []byte{'['}
				for i, e := range v.arr {
					if i > 0 {
						b = append(b, ',')
					}
					b = append(b, canon(e)...)
				}
				return append(b, ']')
			}
			return v.raw
		}
		nb := string(canon(js))
		if nb == cs.parts.body {
			return false
		}
		cs.parts.body = nb
		return true
	}},
	{"query-dups", func(cs *mdlCase) bool {
		if cs.parts == nil {
			return false
		}
		seen := map[string]bool{}
		var q []mdlKV
		for _, kv := range cs.parts.query {
			if !seen[kv.k] {
				seen[kv.k] = true
				q = append(q, kv)
			}
		}
		ch := len(q) != len(cs.parts.query)
		cs.parts.query = q
		return ch
	}},
	{"int-params", func(cs *mdlCase) bool {
		if cs.parts == nil {
			return false
		}
		ch := false
		fix := func(l []mdlKV) {
			for i := range l {
				if m := mdlDotZero.FindStringSubmatch(l[i].v); m != nil {
					l[i].v, ch = m[1], true
				}
			}
		}
		fix(cs.parts.query)
		fix(cs.parts.headers)
		fix(cs.parts.cookies)
		for k, v := range cs.paths {
			if m := mdlDotZero.FindStringSubmatch(v); m != nil {
				cs.paths[k], ch = m[1], true
			}
		}
		return ch
	}},
	{"nobody-query", func(cs *mdlCase) bool {
		if cs.parts == nil || !mdlHasBody(cs.parts.method) || cs.mode == "patch" {
			return false
		}
		if strings.TrimSpace(cs.parts.body) != "" && cs.parts.hasBody {
			return false
		}
		ch := len(cs.parts.query) > 0
		cs.parts.query = nil
		return ch
	}},
	{"lax", func(cs *mdlCase) bool { cs.opts.lax, cs.opts.strict = true, false; return true }},
	{"merge", func(cs *mdlCase) bool { mdlStripRules(cs, "merge"); return true }},
}

func TestModelRequestTriage(t *testing.T) {
	if *mdlTriageFlag == "" {
		t.Skip("set -model.triage to a corpus directory")
	}
	files, err := filepath.Glob(filepath.Join(*mdlTriageFlag, "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) > *mdlTriageMax {
		step := len(files) / *mdlTriageMax
		var spread []string
		for i := 0; i < len(files); i += step {
			spread = append(spread, files[i])
		}
		files = spread
	}
	groups := map[string][]string{}
	for _, file := range files {
		data := mdlReadCorpusFile(t, file)
		cs, g := mdlGenerateReq(data)
		if cs == nil {
			continue
		}
		if d, skip := cs.compareReq(g.lib); skip || d == "" {
			groups["(agree)"] = append(groups["(agree)"], filepath.Base(file))
			continue
		}
		var fixes []string
		for _, tr := range mdlTriageTransforms {
			c2, _ := mdlGenerateReq(data)
			if !tr.f(c2) {
				continue
			}
			if c2.parts != nil {
				c2.request = c2.parts.build
			}
			reg := c2.lib(t)
			if reg == nil {
				continue
			}
			if d, skip := c2.compareReq(reg); !skip && d == "" {
				fixes = append(fixes, tr.name)
			}
		}
		key := strings.Join(fixes, "+")
		if key == "" {
			key = "(none)"
		}
		key = cs.mode + ": " + key
		groups[key] = append(groups[key], filepath.Base(file))
	}
	var keys []string
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return len(groups[keys[i]]) > len(groups[keys[j]]) })
	for _, k := range keys {
		t.Logf("%6d %s  e.g. %v", len(groups[k]), k, groups[k][:min(4, len(groups[k]))])
	}
	for i, name := range groups[*mdlTriageShow] {
		if i == 40 {
			break
		}
		cs, g := mdlGenerateReq(mdlReadCorpusFile(t, filepath.Join(*mdlTriageFlag, name)))
		d, _ := cs.compareReq(g.lib)
		t.Logf("%s\n%s%s", name, cs.report(), d)
	}
}

// lib builds the registry of a transformed case, nil when the library
// refuses its declarations. (A response case whose input holds Objects
// the first registry made is read with another registry's entities: its
// triage says little.)
func (cs *mdlCase) lib(t *testing.T) *entity.Registry {
	reg, err := cs.build()
	if err != nil {
		return nil
	}
	return reg
}
