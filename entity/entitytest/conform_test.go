package entitytest

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// seedJSON is the seed's payload: 227 bytes the "users" entity writes.
const seedJSON = `{"offset":0,"limit":2,"list":[{"number":12,"name":"maachang","details":{"age":40,"mail":"maachang@maachang.com"},"code":"unknown"},{"number":21,"name":"saito","details":{"age":27,"mail":"saito@maachang.com"},"code":"unknown"}]}`

var conformTests = []struct {
	name    string
	entity  string
	payload string
	opts    []Option
	want    []string // nil: the payload conforms
}{
	// Payloads that conform.
	{"seed payload", "users", seedJSON, nil, nil},
	{"list of objects", "user", `[{"number":1,"name":"a","details":{"age":null,"mail":null},"code":"x"},{"number":null,"name":"b","details":{"age":2,"mail":"b@c.de"},"code":"unknown"}]`, nil, nil},
	{"empty list", "user", `[]`, nil, nil},
	{"ref as empty list", "users", `{"offset":0,"limit":0,"list":[]}`, nil, nil},
	{"ref as object", "users", `{"offset":0,"limit":0,"list":{"number":1,"name":"a","details":{"age":1,"mail":null},"code":"c"}}`, nil, nil},
	{"optional ref null", "users", `{"offset":0,"limit":0,"list":null}`, nil, nil},
	{"white space", "scalars", " {\n\t\"s\" : \"x\", \"n\": -3, \"f\": 1e+21, \"b\": false, \"d\": \"2024-01-15T12:30:00.5+09:00\", \"l\": [1, \"a\", null], \"o\": {\"k\": [ ]}, \"x\": {\"any\": 1}\n} ", nil, nil},
	{"all null", "scalars", `{"s":null,"n":null,"f":null,"b":null,"d":null,"l":null,"o":null,"x":null}`, nil, nil},
	{"float as whole number", "scalars", `{"s":"","n":0,"f":2,"b":true,"d":"1970-01-01T00:00:00Z","l":[],"o":{},"x":"x"}`, nil, nil},
	{"default null on none", "defaults", `{"code":"c","n":1,"f":1.5,"b":true,"d":"2020-01-01T00:00:00Z","l":[],"o":{},"x":null,"y":1,"req":"r"}`, nil, nil},
	{"order ignored", "user", `{"name":"a","code":"c","details":{"mail":null,"age":3},"number":1}`, []Option{IgnoreOrder()}, nil},
	{"recursive refs", "tree", `{"name":"a","children":[{"name":"b","children":[{"name":"c","children":null,"parent":null}],"parent":null}],"parent":null}`, nil, nil},
	{"required ref as empty list", "chain", `{"n":1,"next":[]}`, nil, nil},
	{"escaped keys", "keys", `{"a.b":null,"x y":1,"\u00e9":"\u00e9\u00e9","#":null}`, nil, nil},
	{"custom rules hold", "custom", `{"n":4,"s":"ABCD","m":4}`, nil, nil},
	{"none judged by its kind", "loose", `{"x":3,"y":"a@b.co","z":"abc","w":[1,2]}`, nil, nil},
	{"int64 bounds", "scalars", `{"s":null,"n":-9223372036854775808,"f":null,"b":null,"d":null,"l":null,"o":null,"x":null}`, nil, nil},

	// Per-call shaping: what the call's flags and version write (Call),
	// fields a call may leave out, and Partial.
	{"shaped, as a call without options writes it", "shaped", `{"id":1,"nick":"n","amount":5,"more":{"x":"x"}}`, nil, nil},
	{"shaped, every field", "shaped", `{"id":1,"bio":"b","token":"t","nick":"n","amount":5,"more":{"x":"x"},"kids":[{"id":2,"token":null,"nick":null,"amount":null,"more":{"x":null}}]}`,
		[]Option{Call(entity.With("admin"), entity.Version("v3"))}, nil},
	{"shaped, a v1 amount", "shaped", `{"id":1,"nick":"n","amount":"5"}`, []Option{Call(entity.Version("v1"))}, nil},
	{"shaped, a guest's", "shaped", `{"id":1,"amount":5,"more":{"x":"x"}}`, []Option{Call(entity.With("guest"))}, nil},
	{"partial: a selection", "users", `{"list":[{"name":"a"},{"details":{"mail":"m@m.com"}}]}`, []Option{Partial()}, nil},
	{"partial: nothing", "user", `{}`, []Option{Partial()}, nil},
	{"partial still checks types", "user", `{"name":1}`, []Option{Partial()}, []string{
		`name: want string, got 1`,
	}},
	{"partial still checks order", "user", `{"code":"c","name":"a"}`, []Option{Partial()}, []string{
		`(root): keys out of order: got [code name], want [name code]`,
	}},
	{"partial refuses undeclared keys", "user", `{"nope":1}`, []Option{Partial()}, []string{
		`nope: undeclared key, got 1`,
	}},
	{"shaped, an amount of neither version's type", "shaped", `{"id":1,"nick":"n","amount":true}`, []Option{Call(entity.Version("v1"))}, []string{
		`amount: want string, got true`,
	}},
	{"shaped, a required field is still required", "shaped", `{"nick":"n","amount":5,"more":{"x":null}}`, nil, []string{
		`id: missing key, want number`,
	}},
	{"shaped, a field the call writes is required", "shaped", `{"id":1,"token":null,"nick":"n","amount":5}`, []Option{Call(entity.With("admin"))}, []string{
		`more: missing key, want object (group)`,
	}},
	{"shaped, a flagged key without the call's flags", "shaped", `{"id":1,"token":"t","nick":"n","amount":5,"more":{"x":"x"}}`, nil, []string{
		`token: undeclared key (declared for other flags or versions), got "t"`,
	}},
	{"shaped, a key of another version", "shaped", `{"id":1,"nick":"n","amount":"5","more":{"x":"x"}}`, []Option{Call(entity.Version("v1"))}, []string{
		`more: undeclared key (declared for other flags or versions), got {"x":"x"}`,
	}},
	{"shaped, a key the flags hide", "shaped", `{"id":1,"nick":"n","amount":5,"more":{"x":"x"}}`, []Option{Call(entity.With("guest"))}, []string{
		`nick: undeclared key (declared for other flags or versions), got "n"`,
	}},

	{"merged keys", "merging", `{"name":"a","street":"s","city":"c","g":{"street":null,"city":"h"},"n":1}`, nil, nil},
	{"merged keys absent", "merging", `{"name":"a","g":{},"n":1}`, nil, nil},
	{"merged key checked", "merging", `{"name":"a","street":1,"city":"","g":{},"n":1}`, nil, []string{
		`street: want string, got 1`,
		`city: want string matching min 1, got "": must be at least 1 character long (min)`,
	}},

	{"typed lists", "typedlists", `{"tags":["ABC",null],"ns":[2,4,null],"ds":["2024-01-15T00:00:00Z"],"few":[1.5],"users":[]}`, nil, nil},

	{"formats", "written", `{"at":1705321800,"ms":1705321800000,"day":"2024-01-15","web":"Mon, 15 Jan 2024 12:30:00 GMT","local":"2024-01-15 12:30","price":1.50,"seen":[1705321800,null]}`, nil, nil},

	// Invalid payloads.
	{"formats' written types", "written", `{"at":"2024-01-15T12:30:00Z","ms":1.5,"day":1,"web":null,"local":"x","price":0.5,"seen":["2024-01-15"]}`, nil, []string{
		`at: want date written as format unix, got "2024-01-15T12:30:00Z"`,
		`ms: want date written as format unixms, got 1.5: not an integer`,
		`day: want date written as format date, got 1`,
		`local: want date written as format '2006-01-02 15:04', got "x": not a date as '2006-01-02 15:04' writes it`,
		`price: want float matching min 1 written as format fixed 2, got 0.5: not written with 2 decimals (fixed 2)`,
		`seen[0]: want date written as format unix, got "2024-01-15"`,
	}},
	{"a transform's output", "typedlists", `{"tags":["abc"],"ns":null,"ds":null,"few":null,"users":null}`, nil, []string{
		`tags[0]: want string matching len 3 | upper, got "abc": is not what the field's transforms write (upper)`,
	}},
	{"typed lists element by element", "typedlists", `{"tags":["ABCD",1],"ns":[3],"ds":[5],"few":[1,2,3],"users":{}}`, nil, []string{
		`tags[0]: want string matching len 3 | upper, got "ABCD": must be exactly 3 characters long (len)`,
		`tags[1]: want string matching len 3 | upper, got 1`,
		`ns[0]: want number matching in 2 4, got 3: must be one of 2, 4 (in)`,
		`ds[0]: want date, got 5`,
		`few: want []float matching max 2, got [1,2,3]: must have at most 2 elements (max)`,
		`users: want list ([]$user), got {}`,
	}},
	{"invalid JSON", "user", `{"number":1,}`, nil, []string{
		`(root): invalid JSON: invalid character '}' looking for beginning of object key string (at byte 13)`,
	}},
	{"empty payload", "user", ``, nil, []string{
		`(root): invalid JSON: unexpected end of JSON input (at byte 0)`,
	}},
	{"two values", "empty", `{} {}`, nil, []string{
		`(root): invalid JSON: invalid character '{' after top-level value (at byte 4)`,
	}},
	{"not an object", "user", `"user"`, nil, []string{
		`(root): want object or list ($user), got "user"`,
	}},
	{"list element not an object", "user", `[{"number":1,"name":"a","details":{"age":1,"mail":null},"code":"c"},5]`, nil, []string{
		`[1]: want object ($user), got 5`,
	}},

	// Keys.
	{"missing key", "user", `{"number":12,"details":{"age":40,"mail":"m@m.com"},"code":"unknown"}`, nil, []string{
		`name: missing key, want string`,
	}},
	{"missing keys in a group", "user", `{"number":12,"name":"a","details":{},"code":"unknown"}`, nil, []string{
		`details.age: missing key, want number matching num`,
		`details.mail: missing key, want string matching email`,
	}},
	{"undeclared key", "user", `{"number":12,"name":"a","details":{"age":1,"mail":null,"extra":[1,2]},"code":"c","id":12}`, nil, []string{
		`details.extra: undeclared key, got [1,2]`,
		`id: undeclared key, got 12`,
	}},
	{"input name instead of output key", "renamed", `{"id":1,"firstName":"ab","Meta":{"version":1}}`, nil, []string{
		`ID: missing key, want number`,
		`id: undeclared key, got 1`,
	}},
	{"wrong order", "user", `{"name":"a","number":12,"details":{"mail":null,"age":1},"code":"c"}`, nil, []string{
		`(root): keys out of order: got [name number details code], want [number name details code]`,
		`details: keys out of order: got [mail age], want [age mail]`,
	}},
	{"wrong order with a missing key", "user", `{"code":"c","number":12,"details":{"age":1,"mail":null}}`, nil, []string{
		`(root): keys out of order: got [code number details], want [number details code]`,
		`name: missing key, want string`,
	}},
	{"duplicate key", "renamed", `{"ID":1,"firstName":"ab","ID":2,"Meta":{"version":1}}`, nil, []string{
		`ID: duplicate key`,
	}},
	{"quoted path key", "keys", `{"a.b":1,"x y":1,"é":"éé","#":true,"c|d":0,"[0]":1}`, nil, []string{
		`["a.b"]: want string, got 1`,
		`c|d: undeclared key, got 0`,
		`["[0]"]: undeclared key, got 1`,
	}},

	// JSON types.
	{"wrong JSON types", "scalars", `{"s":1,"n":"1","f":"1.5","b":"true","d":1700000000000,"l":{},"o":[],"x":true}`, nil, []string{
		`s: want string, got 1`,
		`n: want number, got "1"`,
		`f: want float, got "1.5"`,
		`b: want bool, got "true"`,
		`d: want date, got 1700000000000`,
		`l: want list, got {}`,
		`o: want object, got []`,
	}},
	{"number not an integer", "scalars", `{"s":null,"n":1.5,"f":null,"b":null,"d":null,"l":null,"o":null,"x":null}`, nil, []string{
		`n: want number, got 1.5: not an integer`,
	}},
	{"number in exponent form", "scalars", `{"s":null,"n":1e3,"f":null,"b":null,"d":null,"l":null,"o":null,"x":null}`, nil, []string{
		`n: want number, got 1e3: not an integer`,
	}},
	{"number out of range", "scalars", `{"s":null,"n":9223372036854775808,"f":null,"b":null,"d":null,"l":null,"o":null,"x":null}`, nil, []string{
		`n: want number, got 9223372036854775808: out of the int64 range`,
	}},
	{"date not RFC 3339", "scalars", `{"s":null,"n":null,"f":null,"b":null,"d":"2024-01-15","l":null,"o":null,"x":null}`, nil, []string{
		`d: want date, got "2024-01-15": not an RFC 3339 date`,
	}},
	{"the seed's mismatch", "users", `{"offset":0,"limit":2,"list":[{"number":12,"name":"maachang","details":{"age":40,"mail":"maachang@maachang.com"},"code":"unknown"},{"number":21,"name":"saito","details":{"age":27,"mail":12},"code":"unknown"}]}`, nil, []string{
		`list[1].details.mail: want string matching email, got 12`,
	}},
	{"group not an object", "groups", `{"id":1,"a":[],"e":"e"}`, nil, []string{
		`a: want object (group), got []`,
		`e: want object (group), got "e"`,
	}},
	{"ref not an object", "users", `{"offset":0,"limit":0,"list":"none"}`, nil, []string{
		`list: want object or list ($user), got "none"`,
	}},
	{"long value cut", "scalars", `{"s":["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"],"n":null,"f":null,"b":null,"d":null,"l":null,"o":null,"x":null}`, nil, []string{
		`s: want string, got ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…`,
	}},

	// Nulls.
	{"required null", "required", `{"name":null,"age":null,"ok":null,"at":null}`, nil, []string{
		`name: want string, got null: is required (req)`,
		`age: want number, got null: is required (req)`,
		`ok: want bool, got null: is required (req)`,
		`at: want date, got null: is required (req)`,
	}},
	{"null where a default fills", "defaults", `{"code":null,"n":null,"f":null,"b":null,"d":null,"l":null,"o":null,"x":null,"y":null,"req":null}`, nil, []string{
		`code: want string, got null: has a default (default)`,
		`n: want number, got null: has a default (default)`,
		`f: want float, got null: has a default (default)`,
		`b: want bool, got null: has a default (default)`,
		`d: want date, got null: has a default (default)`,
		`l: want list, got null: has a default (default)`,
		`o: want object, got null: has a default (default)`,
		`y: want any value, got null: has a default (default)`,
		`req: want string, got null: has a default (default)`,
	}},
	{"group null", "groups", `{"id":1,"a":null,"e":null}`, nil, []string{
		`a: want object (group), got null: a group is always an object`,
		`e: want object (group), got null: a group is always an object`,
	}},
	{"ref null", "refs", `{"owner":null,"boss":null,"Peer":null}`, nil, []string{
		`owner: want object or list ($user), got null: has a default (default)`,
		`boss: want object or list ($user), got null: is required (req)`,
	}},

	// Rules.
	{"formats", "formats", `{"mail":"nope","site":"ftp://x","day":"2024-02-30","at":"24:00","ts":"soon","long":"a@b.co","short":"https://example.com/long"}`, nil, []string{
		`mail: want string matching email, got "nope": must be a valid email address (email)`,
		`site: want string matching url, got "ftp://x": must be a valid URL (url)`,
		`day: want string matching date, got "2024-02-30": must be a valid date (YYYY-MM-DD or YYYY/M/D) (date)`,
		`at: want string matching time, got "24:00": must be a valid time (HH:mm) (time)`,
		`ts: want string matching timestamp, got "soon": must be a date or timestamp (timestamp)`,
		`long: want string matching email | min 30, got "a@b.co": must be at least 30 characters long (min)`,
		`short: want string matching url | max 15, got "https://example.com/long": must be at most 15 characters long (max)`,
	}},
	{"sizes", "sizes", `{"short":"ab","long":"abcdef","between":"a","exact":"abc","age":151,"neg":0,"big":999,"score":0.95,"tags":[1],"few":[1],"count":21}`, nil, []string{
		`short: want string matching min 3, got "ab": must be at least 3 characters long (min)`,
		`long: want string matching max 5, got "abcdef": must be at most 5 characters long (max)`,
		`between: want string matching range 2 4, got "a": must be between 2 and 4 characters long (range)`,
		`exact: want string matching range 7 7, got "abc": must be exactly 7 characters long (range)`,
		`age: want number matching range 0 150, got 151: must be between 0 and 150 (range)`,
		`neg: want number matching max -5, got 0: must be at most -5 (max)`,
		`big: want number matching min 1000, got 999: must be at least 1000 (min)`,
		`score: want float matching range 0.5 0.9, got 0.95: must be between 0.5 and 0.9 (range)`,
		`tags: want list matching min 2, got [1]: must have at least 2 elements (min)`,
		`few: want list matching max 0, got [1]: must have at most 0 elements (max)`,
		`count: want number matching min 10 | max 20, got 21: must be at most 20 (max)`,
	}},
	{"sizes count runes", "keys", `{"a.b":null,"x y":null,"é":"é","#":null}`, nil, []string{
		`é: want string matching min 2, got "é": must be at least 2 characters long (min)`,
	}},
	{"regex", "patterns", `{"code":"AB-1","slug":"Slug","hex":"#12345","phone":"+1234567890","word":"gopher","either":"maybe","lower":"abc"}`, nil, []string{
		`code: want string matching regex '^[A-Z]{3}-[0-9]{4}$', got "AB-1": must match /^[A-Z]{3}-[0-9]{4}$/ (regex)`,
		`slug: want string matching regex '^[a-z0-9]+(-[a-z0-9]+)*$', got "Slug": must match /^[a-z0-9]+(-[a-z0-9]+)*$/ (regex)`,
		`hex: want string matching regex '^#[0-9a-fA-F]{6}$', got "#12345": must match /^#[0-9a-fA-F]{6}$/ (regex)`,
		`phone: want string matching regex '^\+?[0-9]{10,12}$' | min 12, got "+1234567890": must be at least 12 characters long (min)`,
		`word: want string matching regex '\bgo\b' | min 5, got "gopher": must match /\bgo\b/ (regex)`,
		`either: want string matching regex '^(yes|no)$', got "maybe": must match /^(yes|no)$/ (regex)`,
		`lower: want string matching regex '^[^A-Z0-9]+$' | range 4 6, got "abc": must be between 4 and 6 characters long (range)`,
	}},
	{"type checks", "typechecks", `{"n":1,"f":1.5,"b":true,"t":"2024-01-15T12:30:00Z","s":"abc","sb":"yes","nb":2}`, nil, []string{
		`s: want string matching num, got "abc": must be a number (num)`,
		`sb: want string matching bool, got "yes": must be a boolean (bool)`,
		`nb: want number matching bool, got 2: must be a boolean (bool)`,
	}},
	{"none judged at run time", "loose", `{"x":"ab","y":5,"z":"b","w":{"a":1}}`, nil, []string{
		`x: want any value matching min 3, got "ab": must be at least 3 characters long (min)`,
		`y: want any value matching email, got 5: must be a string (email)`,
		`z: want any value matching regex '^a', got "b": must match /^a/ (regex)`,
		`w: want any value matching max 2, got {"a":1}: must be a string, number or list (max)`,
	}},
	{"custom rules", "custom", `{"n":3,"s":"abc","m":6}`, nil, []string{
		`n: want number matching even, got 3: must be even (even)`,
		`s: want string matching caps | min 4, got "abc": must be in upper case (caps)`,
		`s: want string matching caps | min 4, got "abc": must be at least 4 characters long (min)`,
		`m: want number matching even | range 3 5, got 6: must be between 3 and 5 (range)`,
	}},
	{"secret value not shown", "secrets", `{"login":"me","password":"hunter2"}`, nil, []string{
		`password: want string matching min 8, got a string (secret): is not valid (min)`,
	}},
	{"secret of the wrong type", "secrets", `{"login":"me","password":12345678}`, nil, []string{
		`password: want string matching min 8, got a number (secret)`,
	}},

	// Nesting.
	{"nested group error", "groups", `{"id":1,"a":{"B":{"c":10},"d":"x"},"e":{"f":1}}`, nil, []string{
		`a.B.c: want number matching range 5 9, got 10: must be between 5 and 9 (range)`,
		`a.d: want string matching min 2, got "x": must be at least 2 characters long (min)`,
		`e.f: undeclared key, got 1`,
	}},
	{"ref list element error", "users", `{"offset":0,"limit":2,"list":[{"number":1,"name":"a","details":{"age":1,"mail":null},"code":"c"},{"number":2,"name":null,"details":{"age":"2","mail":"x"},"code":"c"},7]}`, nil, []string{
		`list[1].name: want string, got null: is required (req)`,
		`list[1].details.age: want number matching num, got "2"`,
		`list[1].details.mail: want string matching email, got "x": must be a valid email address (email)`,
		`list[2]: want object ($user), got 7`,
	}},
	{"recursive ref error", "tree", `{"name":"a","children":[{"name":"b","children":[{"name":1,"children":null,"parent":null}],"parent":null}],"parent":null}`, nil, []string{
		`children[0].children[0].name: want string, got 1`,
	}},
	{"mutual recursion", "ping", `{"at":null,"pong":{"at":null,"ping":{"at":"now","pong":null}}}`, nil, []string{
		`pong.ping.at: want date, got "now": not an RFC 3339 date`,
	}},
	{"top-level list element error", "user", `[{"number":1,"name":"a","details":{"age":1,"mail":null},"code":"c"},{"number":2,"name":"b","details":{"age":1,"mail":null}}]`, nil, []string{
		`[1].code: missing key, want string`,
	}},
	{"ref to an undeclared entity", "undeclared", `{"ghost":{}}`, nil, []string{
		`ghost: cannot check: $nobody names no declared entity`,
	}},
	{"everything at once", "user", `{"name":5,"number":"x","details":{"age":1.5},"code":null,"more":true}`, nil, []string{
		`(root): keys out of order: got [name number details code], want [number name details code]`,
		`number: want number matching num, got "x"`,
		`name: want string, got 5`,
		`details.age: want number matching num, got 1.5: not an integer`,
		`details.mail: missing key, want string matching email`,
		`code: want string, got null: has a default (default)`,
		`more: undeclared key, got true`,
	}},
}

func TestConform(t *testing.T) {
	for _, tt := range conformTests {
		t.Run(tt.name, func(t *testing.T) {
			e := corpus.Lookup(tt.entity)
			if e == nil {
				t.Fatalf("no entity %q in the corpus", tt.entity)
			}
			tb := &fakeTB{}
			ok := Conform(tb, e, []byte(tt.payload), tt.opts...)
			checkReport(t, tb, ok, tt.want)
		})
	}
}

// TestConformFailsWithoutOption: the payloads that pass only with an option
// fail without it.
func TestConformStrictByDefault(t *testing.T) {
	for _, tt := range conformTests {
		if tt.opts == nil || tt.want != nil {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			if Conform(&fakeTB{}, corpus.Lookup(tt.entity), []byte(tt.payload)) {
				t.Errorf("conforms without options")
			}
		})
	}
}

func TestConformNilEntity(t *testing.T) {
	tb := &fakeTB{}
	ok := Conform(tb, nil, []byte(`{}`))
	checkReport(t, tb, ok, []string{"(root): no entity to check against (nil *entity.Entity)"})
}

// FuzzConform: no payload makes Conform panic, a payload conforms exactly
// when nothing is reported, and ignoring order never adds a mismatch.
func FuzzConform(f *testing.F) {
	for _, tt := range conformTests {
		f.Add(tt.entity, tt.payload)
	}
	f.Fuzz(func(t *testing.T, name, payload string) {
		e := corpus.Lookup(name)
		if e == nil {
			e = corpus.Lookup("users")
		}
		strict := conform(e, []byte(payload), config{})
		relaxed := conform(e, []byte(payload), config{ignoreOrder: true})
		if len(relaxed) > len(strict) {
			t.Errorf("IgnoreOrder added mismatches:\n%q\n%q", strict, relaxed)
		}
	})
}

// TestConformAcceptsNullElementOfRefList: Make writes null for an element
// of a []$addr that is not an object (or is null), and Conform accepts
// what Make writes; an element that is neither is still refused.
func TestConformAcceptsNullElementOfRefList(t *testing.T) {
	r := entity.NewRegistry()
	r.MustExpose("addr", "city", "string", "req")
	e := r.MustExpose("person",
		"addrs", "[]$addr", "",
		"home", "$addr", "",
	)
	in := map[string]any{
		"addrs": []any{1, "x", nil, map[string]any{"city": "c"}},
		"home":  []any{nil, true, map[string]any{"city": "d"}},
	}
	out, err := e.MakeJSON(in)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"addrs":[null,null,null,{"city":"c"}],"home":[{"city":"d"}]}`; string(out) != want {
		t.Fatalf("MakeJSON = %s, want %s", out, want)
	}
	tb := &fakeTB{}
	checkReport(t, tb, Conform(tb, e, out), nil)

	tb = &fakeTB{}
	checkReport(t, tb, Conform(tb, e, []byte(`{"addrs":[5],"home":null}`)), []string{`addrs[0]: want object ($addr), got 5`})
}

// TestConformRefusesWhatItCannotCheck: Request (Conform checks responses)
// and a Call whose options the entity refuses are reported, not ignored.
func TestConformRefusesWhatItCannotCheck(t *testing.T) {
	e := corpus.Lookup("shaped")
	payload := []byte(`{"id":1,"nick":"n","amount":5,"more":{"x":"x"}}`)
	tests := []struct {
		name string
		opts []Option
		want string
	}{
		{"Request", []Option{Request()}, `entitytest: Conform: Request is for Sample and CheckStruct: Conform checks what a response writes`},
		{"an undeclared flag", []Option{Call(entity.With("admni"))}, `entitytest: Call: entity: undeclared flag "admni" in With: declare it with Registry.DeclareFlags`},
		{"a version that is not one", []Option{Call(entity.Version("latest"))}, `entitytest: Call: `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &fakeTB{}
			if Conform(tb, e, payload, tt.opts...) {
				t.Fatal("Conform passed")
			}
			if len(tb.errors) != 1 || !strings.HasPrefix(tb.errors[0], tt.want) {
				t.Errorf("messages %q, want one that starts with %q", tb.errors, tt.want)
			}
			rec := httptest.NewRecorder()
			writeRaw(200, jsonCT, string(payload))(rec, httptest.NewRequest("GET", "/", nil))
			tb = &fakeTB{}
			if CheckResponse(tb, rec, e, 200, tt.opts...) {
				t.Fatal("CheckResponse passed")
			}
			if want := strings.Replace(tt.want, "Conform", "CheckResponse", 2); len(tb.errors) != 1 || !strings.HasPrefix(tb.errors[0], want) {
				t.Errorf("CheckResponse: messages %q, want one that starts with %q", tb.errors, want)
			}
		})
	}
}
