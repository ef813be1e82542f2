package entity

import (
	"slices"
	"strings"
	"testing"

	"github.com/expose-go/expose/internal/jsontape"
)

// TestProblemTextsComplete checks the catalog of the problems' texts: each
// has its English and Japanese text, the Japanese placeholders are the
// English ones, every reason jsontape.SyntaxError gives and every kind notAnObject
// names has its phrase, and every key an InputError of the package names
// is a text.
func TestProblemTextsComplete(t *testing.T) {
	phrases := map[string]bool{}
	for key, enText := range catalogEN {
		rest, ok := strings.CutPrefix(key, problemCode+".")
		if !ok {
			continue
		}
		jaText := catalogJA[key]
		if enText == "" || jaText == "" {
			t.Errorf("%q: en %q, ja %q", key, enText, jaText)
			continue
		}
		if strings.HasPrefix(rest, "reason=") || strings.HasPrefix(rest, "got=") {
			phrases[rest] = true
		}
		en, err1 := parseMessage(enText)
		ja, err2 := parseMessage(jaText)
		if err1 != nil || err2 != nil {
			t.Errorf("%q: %v %v", key, err1, err2)
			continue
		}
		ep, jp := en.Placeholders(), ja.Placeholders()
		slices.Sort(ep)
		slices.Sort(jp)
		if !slices.Equal(ep, jp) {
			t.Errorf("%q: English placeholders %v, Japanese %v", key, ep, jp)
		}
	}
	for key := range catalogJA {
		if rest, ok := strings.CutPrefix(key, problemCode+"."); ok && catalogEN[key] == "" && !strings.HasPrefix(rest, "title.") {
			t.Errorf("%q: a Japanese problem text without its English one", key)
		}
	}
	var reasons []string
	for _, r := range jsontape.Reasons() {
		if r != "" {
			reasons = append(reasons, r)
		}
	}
	reasons = append(reasons, "invalid literal, expected true", "invalid literal, expected false", "invalid literal, expected null")
	for _, r := range reasons {
		if !phrases["reason="+r] {
			t.Errorf("no phrase for the reason %q", r)
		}
	}
	for _, got := range []string{"a number", "an object", "an array", "a string", "a boolean", "null"} {
		if !phrases["got="+got] {
			t.Errorf("no phrase for got=%q", got)
		}
	}
	c := builtinCatalogs()
	for _, b := range []string{`{"a":`, `{"a" 1}`, `{"a":1 "b"}`, `[1 2]`, `{} x`, `{"a":"\x"}`, `{"a":01}`, `{"a":tru}`, `{"a":"` + "\x01" + `"}`, `{"a":}`, `{1:2}`, strings.Repeat("[", jsontape.MaxNesting+1)} {
		var tape []int32
		code, off := jsontape.Scan(b, jsontape.MaxNesting, &tape)
		_, reason := jsontape.SyntaxError(b, code, off)
		if !phrases["reason="+reason] {
			t.Errorf("%q: no phrase for the reason %q", b, reason)
		}
		ja := c.text(1, "problem.json.syntax", map[string]any{"offset": off, "reason": reason})
		if strings.Contains(ja, reason) {
			t.Errorf("%q: the Japanese detail %q holds the English reason", b, ja)
		}
	}
}
