package api_test

import "github.com/expose-go/expose/internal/testkit"

// The helpers the packages' tests share (internal/testkit).
var (
	golden = testkit.Golden
	at     = testkit.At
)
