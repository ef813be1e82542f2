package reqsource

import "testing"

func TestQueryMethod(t *testing.T) {
	for _, tt := range []struct {
		method string
		query  bool
	}{
		{"GET", true}, {"HEAD", true}, {"DELETE", true}, {"OPTIONS", true}, {"", true},
		{"POST", false}, {"PUT", false}, {"PATCH", false}, {"TRACE", false}, {"CONNECT", false}, {"PROPFIND", false},
		{"get", false}, // methods are case-sensitive: "get" is no GET
	} {
		if got := QueryMethod(tt.method); got != tt.query {
			t.Errorf("QueryMethod(%q) = %v, want %v", tt.method, got, tt.query)
		}
	}
}
