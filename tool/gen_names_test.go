package tool

import (
	"strings"
	"testing"
)

func TestGoName(t *testing.T) {
	tests := []struct {
		name, in, want string
		ok             bool
	}{
		{"one word", "customer", "Customer", true},
		{"snake case", "created_at", "CreatedAt", true},
		{"an initialism", "user_id", "UserID", true},
		{"camel case", "userId", "UserID", true},
		{"an initialism alone", "url", "URL", true},
		{"a header name", "X-Request-Id", "XRequestID", true},
		{"capitals then a word", "HTTPServer", "HTTPServer", true},
		{"all capitals", "USER_NAME", "UserName", true},
		{"kebab case", "home-page", "HomePage", true},
		{"white space", "first name", "FirstName", true},
		{"a digit inside", "v2_name", "V2Name", true},
		{"a digit before a capital", "v2Name", "V2Name", true},
		{"a byte order mark", "\ufeffx", "X", true},
		{"a letter of another script", "ñandú", "Ñandú", true},
		{"a digit first", "2fa", "2fa", false},
		{"no letter", "-", "", false},
		{"a letter without case", "名前", "名前", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := goName(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Errorf("goName(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestScopeClaim: the first to claim a name gets it, the next ones a
// number after it, the first still free.
func TestScopeClaim(t *testing.T) {
	s := scope{}
	var got []string
	for _, name := range []string{"UserID", "UserID", "UserID2", "UserID", "Name"} {
		got = append(got, s.claim(name))
	}
	if want := "UserID UserID2 UserID22 UserID3 Name"; strings.Join(got, " ") != want {
		t.Errorf("claimed %q, want %q", strings.Join(got, " "), want)
	}
}

func TestValidTag(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"name", true},
		{"X-Request-Id", true},
		{"first name", true},
		{"a.b/c:d", true},
		{"名前", true},
		{"", false},
		{"a,b", false},
		{`say "hi"`, false},
		{`back\slash`, false},
		{"it's", false},
		{"tab\there", false},
	}
	for _, tt := range tests {
		if got := validTag(tt.in); got != tt.ok {
			t.Errorf("validTag(%q) = %v, want %v", tt.in, got, tt.ok)
		}
	}
}
