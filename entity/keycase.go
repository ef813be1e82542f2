package entity

import "github.com/expose-go/expose/internal/engine"

// KeyCaseStyle says how a Registry writes the output keys of the fields
// it compiles. The zero value, AsDeclared, writes each key as declared.
//
// A declared name is split into words at '_', at '-', and before an
// upper-case letter that follows a lower-case letter or a digit. Runs of
// upper-case letters are not split (no acronym guessing): "userID" is the
// words "user" and "ID", "HTTPServer" is one word, "v2Name" is "v2" and
// "Name". Separators at the ends or repeated are dropped ("_x" is "x",
// "x__y" is "x" and "y"); a name with no word at all ("_", "--") is kept
// as declared. Each word is then lower-cased, and upper-cased in its first
// letter where the style says so; letters are those of Unicode, other
// runes (digits, '.', '$', invalid UTF-8) are kept as they are.
//
//	declared    CamelCase   SnakeCase   KebabCase   PascalCase
//	user_id     userId      user_id     user-id     UserId
//	http_code   httpCode    http_code   http-code   HttpCode
//	userID      userId      user_id     user-id     UserId
//	HTTPServer  httpserver  httpserver  httpserver  Httpserver
//	a-b_c       aBC         a_b_c       a-b-c       ABC
//	v2_name     v2Name      v2_name     v2-name     V2Name
type KeyCaseStyle uint8

// The key case styles.
const (
	// AsDeclared writes each output key as declared (the default).
	AsDeclared KeyCaseStyle = iota
	// CamelCase joins the words, the first lower-case and each other
	// capitalized: "user_id" → "userId".
	CamelCase
	// SnakeCase joins the lower-cased words with '_': "userId" →
	// "user_id".
	SnakeCase
	// KebabCase joins the lower-cased words with '-': "userId" →
	// "user-id".
	KebabCase
	// PascalCase joins the words, each capitalized: "user_id" →
	// "UserId".
	PascalCase
)

// String returns the style's name, such as "CamelCase".
func (s KeyCaseStyle) String() string { return engine.KeyCase(s).String() }

// valid reports whether s is one of the styles above.
func (s KeyCaseStyle) valid() bool { return engine.KeyCase(s).Valid() }

type keyCaseOption KeyCaseStyle

func (o keyCaseOption) applyRegistry(c *registryConfig) { s := KeyCaseStyle(o); c.keyCase = &s }

// KeyCase is the RegistryOption (of NewRegistry and Configure) that makes
// a Registry write the output keys of every entity it compiles in style:
// the keys of value fields, of groups and of the fields inside them, and
// of references (which the same Registry compiles, so they follow the
// same style). An explicit rename always wins: its name is written as
// given. Server data is read by the declared names (Make of a database's
// user_id row), and a request in the wire form, under the keys a response
// writes (MakeRequest, Bind and Patch read userId). Two fields whose keys become the same are a declaration
// error. The style is applied when a declaration is compiled: a call pays
// nothing for it. A style that is not one of the constants makes every
// Expose of the Registry fail, and Configure refuse it.
func KeyCase(style KeyCaseStyle) RegistryOption { return keyCaseOption(style) }
