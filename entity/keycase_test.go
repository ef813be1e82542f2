package entity_test

import (
	"fmt"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/entitytest"
)

// keyCaseTests are declared names and the key each style writes for them.
var keyCaseTests = []struct {
	name                       string
	decl                       string
	camel, snake, kebab, pascl string
}{
	{"snake words", "user_id", "userId", "user_id", "user-id", "UserId"},
	{"snake acronym", "http_code", "httpCode", "http_code", "http-code", "HttpCode"},
	{"camel with a trailing acronym", "userID", "userId", "user_id", "user-id", "UserId"},
	{"leading acronym is one word", "HTTPServer", "httpserver", "httpserver", "httpserver", "Httpserver"},
	{"pascal words", "UserName", "userName", "user_name", "user-name", "UserName"},
	{"kebab words", "user-name", "userName", "user_name", "user-name", "UserName"},
	{"mixed separators", "a-b_c", "aBC", "a_b_c", "a-b-c", "ABC"},
	{"leading separator", "_x", "x", "x", "x", "X"},
	{"trailing separator", "x_", "x", "x", "x", "X"},
	{"doubled separator", "x__y", "xY", "x_y", "x-y", "XY"},
	{"one word", "name", "name", "name", "name", "Name"},
	{"one letter", "x", "x", "x", "x", "X"},
	{"digits inside a word", "v2_name", "v2Name", "v2_name", "v2-name", "V2Name"},
	{"digit before upper", "v2Name", "v2Name", "v2_name", "v2-name", "V2Name"},
	{"word starting with a digit", "item_2nd", "item2nd", "item_2nd", "item-2nd", "Item2nd"},
	{"only separators", "__", "__", "__", "__", "__"},
	{"other punctuation kept", "a.b_c", "a.bC", "a.b_c", "a.b-c", "A.bC"},
	{"accented", "émile_zola", "émileZola", "émile_zola", "émile-zola", "ÉmileZola"},
	{"greek camel", "αβΓδ", "αβΓδ", "αβ_γδ", "αβ-γδ", "ΑβΓδ"},
	{"caseless script", "名前_id", "名前Id", "名前_id", "名前-id", "名前Id"},
	{"caseless before upper", "名前ID", "名前id", "名前id", "名前id", "名前id"},
}

func TestKeyCaseStyles(t *testing.T) {
	styles := []struct {
		style entity.KeyCaseStyle
		want  func(i int) string
	}{
		{entity.AsDeclared, func(i int) string { return keyCaseTests[i].decl }},
		{entity.CamelCase, func(i int) string { return keyCaseTests[i].camel }},
		{entity.SnakeCase, func(i int) string { return keyCaseTests[i].snake }},
		{entity.KebabCase, func(i int) string { return keyCaseTests[i].kebab }},
		{entity.PascalCase, func(i int) string { return keyCaseTests[i].pascl }},
	}
	for _, s := range styles {
		for i, c := range keyCaseTests {
			t.Run(s.style.String()+"/"+c.name, func(t *testing.T) {
				reg := entity.NewRegistry(entity.KeyCase(s.style))
				e := expose(t, reg, "e", c.decl, "number", "")
				want := s.want(i)
				if got := e.Fields()[0].Key; got != want {
					t.Errorf("%s of %q: key %q, want %q", s.style, c.decl, got, want)
				}
				// The input is read by the declared name.
				out, err := e.MakeJSON(map[string]any{c.decl: 7})
				if err != nil {
					t.Fatal(err)
				}
				if w := `{` + marshal(t, want) + `:7}`; string(out) != w {
					t.Errorf("MakeJSON: %s, want %s", out, w)
				}
			})
		}
	}
}

func TestKeyCaseCascades(t *testing.T) {
	tests := []struct {
		name  string
		style entity.KeyCaseStyle
		want  string
	}{
		{"camel", entity.CamelCase,
			`{"userId":1,"contactInfo":{"mailAddress":"a@b.c","homeTown":"Kyoto"},"bestFriend":{"userId":2,"contactInfo":{"mailAddress":null,"homeTown":null},"bestFriend":null,"friendList":null,"display_name":"Ann"},"friendList":[{"userId":3,"contactInfo":{"mailAddress":null,"homeTown":null},"bestFriend":null,"friendList":null,"display_name":"Bob"}],"display_name":"Me"}`},
		{"snake", entity.SnakeCase,
			`{"user_id":1,"contact_info":{"mail_address":"a@b.c","home_town":"Kyoto"},"best_friend":{"user_id":2,"contact_info":{"mail_address":null,"home_town":null},"best_friend":null,"friend_list":null,"display_name":"Ann"},"friend_list":[{"user_id":3,"contact_info":{"mail_address":null,"home_town":null},"best_friend":null,"friend_list":null,"display_name":"Bob"}],"display_name":"Me"}`},
		{"kebab", entity.KebabCase,
			`{"user-id":1,"contact-info":{"mail-address":"a@b.c","home-town":"Kyoto"},"best-friend":{"user-id":2,"contact-info":{"mail-address":null,"home-town":null},"best-friend":null,"friend-list":null,"display_name":"Ann"},"friend-list":[{"user-id":3,"contact-info":{"mail-address":null,"home-town":null},"best-friend":null,"friend-list":null,"display_name":"Bob"}],"display_name":"Me"}`},
		{"pascal", entity.PascalCase,
			`{"UserId":1,"ContactInfo":{"MailAddress":"a@b.c","HomeTown":"Kyoto"},"BestFriend":{"UserId":2,"ContactInfo":{"MailAddress":null,"HomeTown":null},"BestFriend":null,"FriendList":null,"display_name":"Ann"},"FriendList":[{"UserId":3,"ContactInfo":{"MailAddress":null,"HomeTown":null},"BestFriend":null,"FriendList":null,"display_name":"Bob"}],"display_name":"Me"}`},
	}
	in := map[string]any{
		"user_id": 1, "mail_address": "a@b.c", "homeTown": "Kyoto", "name": "Me",
		"best_friend": map[string]any{"user_id": 2, "name": "Ann"},
		"friend_list": []any{map[string]any{"user_id": 3, "name": "Bob"}},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			reg := entity.NewRegistry(entity.KeyCase(c.style))
			// person refers to itself and to a list of itself: the
			// referenced entity is compiled by the same registry.
			person := expose(t, reg, "person",
				"user_id", "number", "",
				"contact_info", "{", "",
				"mail_address", "string", "",
				"homeTown", "string", "",
				"contact_info", "}", "",
				"best_friend", "$person", "",
				"friend_list", "$person", "",
				"name", "string", "rename 'display_name'",
			)
			if err := reg.Verify(); err != nil {
				t.Fatal(err)
			}
			out, err := person.MakeJSON(in)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != c.want {
				t.Errorf("MakeJSON:\n got %s\nwant %s", out, c.want)
			}
			entitytest.Conform(t, person, out)
		})
	}
}

func TestKeyCaseRenameWins(t *testing.T) {
	tests := []struct {
		name   string
		rename string
	}{
		{"snake rename", "user_id"},
		{"kebab rename", "user-id"},
		{"upper rename", "USER_ID"},
		{"pascal rename", "UserID"},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			reg := entity.NewRegistry(entity.KeyCase(entity.CamelCase))
			e := expose(t, reg, "e",
				"id", "number", "rename '"+c.rename+"'",
				"group_name", "{", "rename '"+c.rename+"_group'",
				"inner_field", "string", "",
				"group_name", "}", "",
			)
			out, err := e.MakeJSON(map[string]any{"id": 1, "inner_field": "x"})
			if err != nil {
				t.Fatal(err)
			}
			want := `{"` + c.rename + `":1,"` + c.rename + `_group":{"innerField":"x"}}`
			if string(out) != want {
				t.Errorf("MakeJSON: %s, want %s", out, want)
			}
		})
	}
}

func TestKeyCaseClashes(t *testing.T) {
	tests := []struct {
		name  string
		style entity.KeyCaseStyle
		decl  []string
		want  string
	}{
		{"camel of snake meets camel", entity.CamelCase,
			[]string{"userId", "number", "", "user_id", "number", ""},
			`dsl: entity "e", field "user_id" (triple 2, name): output key "userId" ("user_id" in CamelCase) is already written by field "userId" (triple 1)`},
		{"declared camel after cased snake", entity.CamelCase,
			[]string{"user_id", "number", "", "userId", "number", ""},
			`dsl: entity "e", field "userId" (triple 2, name): output key "userId" is already written by field "user_id" (triple 1)`},
		{"snake of kebab meets snake", entity.SnakeCase,
			[]string{"a_b", "number", "", "a-b", "number", ""},
			`dsl: entity "e", field "a-b" (triple 2, name): output key "a_b" ("a-b" in SnakeCase) is already written by field "a_b" (triple 1)`},
		{"acronym folds", entity.SnakeCase,
			[]string{"user_id", "number", "", "userID", "number", ""},
			`dsl: entity "e", field "userID" (triple 2, name): output key "user_id" ("userID" in SnakeCase) is already written by field "user_id" (triple 1)`},
		{"inside a group", entity.KebabCase,
			[]string{"g", "{", "", "x_y", "number", "", "xY", "number", "", "g", "}", ""},
			`dsl: entity "e", field "xY" (triple 3, name): output key "x-y" ("xY" in KebabCase) is already written by field "x_y" (triple 2)`},
		{"cased key meets a rename", entity.PascalCase,
			[]string{"a", "number", "rename 'UserId'", "user_id", "number", ""},
			`dsl: entity "e", field "user_id" (triple 2, name): output key "UserId" ("user_id" in PascalCase) is already written by field "a" (triple 1)`},
		{"group key clashes with a field", entity.CamelCase,
			[]string{"a_b", "number", "", "aB", "{", "", "c", "number", "", "aB", "}", ""},
			`dsl: entity "e", field "aB" (triple 2, name): output key "aB" is already written by field "a_b" (triple 1)`},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			reg := entity.NewRegistry(entity.KeyCase(c.style))
			_, err := reg.Expose("e", c.decl...)
			if err == nil {
				t.Fatal("Expose: no error")
			}
			if got := strings.SplitN(err.Error(), "\n", 2)[0]; got != c.want {
				t.Errorf("Expose:\n got %s\nwant %s", got, c.want)
			}
			// Without the key case the same declaration compiles.
			if _, err := entity.NewRegistry().Expose("e", c.decl...); err != nil {
				t.Errorf("Expose without a key case: %v", err)
			}
		})
	}
}

// TestKeyCaseInputNamesUnchanged: server data is read by the declared
// names; a request by the keys a client sees (the cased ones), but for a
// header field, read by its declared name.
func TestKeyCaseInputNamesUnchanged(t *testing.T) {
	reg := entity.NewRegistry(entity.KeyCase(entity.CamelCase))
	e := expose(t, reg, "e",
		"user_id", "number", "req",
		"page_size", "number", "default 10",
		"x-request-id", "string", "",
	)
	want := `{"userId":5,"pageSize":20,"xRequestId":"r1"}`
	t.Run("Make from the declared keys", func(t *testing.T) {
		o, err := e.Make(map[string]any{"user_id": 5, "page_size": 20, "x-request-id": "r1"})
		if err != nil {
			t.Fatal(err)
		}
		if got := o.String(); got != want {
			t.Errorf("Make: %s, want %s", got, want)
		}
		if got, w := o.Keys(), []string{"userId", "pageSize", "xRequestId"}; !slices.Equal(got, w) {
			t.Errorf("Keys: %q, want %q", got, w)
		}
		if v, ok := o.Get("userId"); !ok || v != int64(5) {
			t.Errorf(`Get("userId") = %v, %v; want 5, true`, v, ok)
		}
		if _, ok := o.Get("user_id"); ok {
			t.Error(`Get("user_id") found a key the output does not have`)
		}
	})
	t.Run("Make ignores cased keys", func(t *testing.T) {
		_, err := e.Make(map[string]any{"userId": 5})
		if fe := fieldErrors(t, err); len(fe) != 1 || fe[0].Path != "user_id" || fe[0].OutputPath != "userId" || fe[0].Rule != "req" {
			t.Errorf("Make with the cased key: %v, want user_id (output userId) failing req", err)
		}
	})
	t.Run("MakeRequest reads the cased keys", func(t *testing.T) {
		r := httptest.NewRequest("GET", "/?"+url.Values{"userId": {"5"}, "pageSize": {"20"}, "user_id": {"6"}}.Encode(), nil)
		r.Header.Set("X-Request-Id", "r1")
		o, err := e.MakeRequest(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := o.String(); got != want {
			t.Errorf("MakeRequest: %s, want %s", got, want)
		}
	})
}

func TestConfigureKeyCase(t *testing.T) {
	t.Run("before anything is exposed", func(t *testing.T) {
		reg := entity.NewRegistry()
		if err := reg.Configure(entity.KeyCase(entity.SnakeCase)); err != nil {
			t.Fatal(err)
		}
		if got := reg.KeyCase(); got != entity.SnakeCase {
			t.Errorf("KeyCase: %v, want SnakeCase", got)
		}
		out, err := expose(t, reg, "e", "userId", "number", "").MakeJSON(map[string]any{"userId": 1})
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != `{"user_id":1}` {
			t.Errorf("MakeJSON: %s", out)
		}
	})
	t.Run("after an entity is exposed", func(t *testing.T) {
		reg := entity.NewRegistry(entity.KeyCase(entity.CamelCase))
		expose(t, reg, "first", "user_id", "number", "")
		err := reg.Configure(entity.KeyCase(entity.SnakeCase))
		want := `entity: Configure(KeyCase(SnakeCase)) after entity "first" was exposed: set the key case before exposing anything`
		if err == nil || err.Error() != want {
			t.Errorf("SetKeyCase: %v, want %s", err, want)
		}
		if got := reg.KeyCase(); got != entity.CamelCase {
			t.Errorf("KeyCase after a refused SetKeyCase: %v, want CamelCase", got)
		}
		out, err := expose(t, reg, "second", "user_id", "number", "").MakeJSON(map[string]any{"user_id": 1})
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != `{"userId":1}` {
			t.Errorf("an entity exposed after a refused SetKeyCase: %s, want the registry's CamelCase", out)
		}
	})
	t.Run("a reference alone exposes nothing", func(t *testing.T) {
		reg := entity.NewRegistry()
		if _, err := reg.Expose("bad", "x", "$later", "", "y", "nmbr", ""); err == nil {
			t.Fatal("Expose: no error")
		}
		if err := reg.Configure(entity.KeyCase(entity.KebabCase)); err != nil {
			t.Errorf("SetKeyCase after a failed Expose: %v", err)
		}
	})
	t.Run("an unknown style", func(t *testing.T) {
		reg := entity.NewRegistry()
		err := reg.Configure(entity.KeyCase(entity.KeyCaseStyle(9)))
		if want := "entity: Configure: unknown key case style KeyCaseStyle(9)"; err == nil || err.Error() != want {
			t.Errorf("SetKeyCase: %v, want %s", err, want)
		}
	})
	t.Run("an unknown style given to NewRegistry", func(t *testing.T) {
		reg := entity.NewRegistry(entity.KeyCase(entity.KeyCaseStyle(9)))
		_, err := reg.Expose("e", "a", "number", "")
		want := `dsl: entity "e": the registry's key case KeyCaseStyle(9) is not a style: give KeyCase one of CamelCase, SnakeCase, KebabCase, PascalCase or AsDeclared`
		if err == nil || err.Error() != want {
			t.Errorf("Expose: %v, want %s", err, want)
		}
	})
}

func TestKeyCaseStyleString(t *testing.T) {
	tests := []struct {
		style entity.KeyCaseStyle
		want  string
	}{
		{entity.AsDeclared, "AsDeclared"},
		{entity.CamelCase, "CamelCase"},
		{entity.SnakeCase, "SnakeCase"},
		{entity.KebabCase, "KebabCase"},
		{entity.PascalCase, "PascalCase"},
		{entity.KeyCaseStyle(200), "KeyCaseStyle(200)"},
	}
	for _, c := range tests {
		t.Run(c.want, func(t *testing.T) {
			if got := c.style.String(); got != c.want {
				t.Errorf("String: %q, want %q", got, c.want)
			}
		})
	}
}

// TestKeyCaseAllocs checks that a key case costs nothing per call: it is
// applied when the declaration is compiled.
func TestKeyCaseAllocs(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts do not hold under the race detector or coverage")
	}
	for _, style := range []entity.KeyCaseStyle{entity.CamelCase, entity.SnakeCase, entity.KebabCase, entity.PascalCase} {
		t.Run(style.String(), func(t *testing.T) {
			reg := entity.NewRegistry(entity.KeyCase(style))
			exposeSeed(t, reg)
			users := reg.Lookup("users")
			in := seedUsers()
			buf := make([]byte, 0, 1024)
			if n := testing.AllocsPerRun(100, func() {
				var err error
				if buf, err = users.AppendJSON(buf[:0], in); err != nil {
					t.Fatal(err)
				}
			}); n != 0 {
				t.Errorf("AppendJSON of the seed with %v: %v allocations, want 0", style, n)
			}
		})
	}
}

func ExampleKeyCase() {
	reg := entity.NewRegistry(entity.KeyCase(entity.CamelCase))
	reg.MustExpose("user",
		"user_id", "number", "",
		"http_code", "number", "",
		"contact_info", "{", "",
		"mail_address", "string", "",
		"contact_info", "}", "",
		"full_name", "string", "rename 'full_name'",
	)
	out, _ := reg.Lookup("user").MakeJSON(map[string]any{
		"user_id": 1, "http_code": 200, "mail_address": "a@example.com", "full_name": "Ann Lee",
	})
	fmt.Println(string(out))
	// Output: {"userId":1,"httpCode":200,"contactInfo":{"mailAddress":"a@example.com"},"full_name":"Ann Lee"}
}
