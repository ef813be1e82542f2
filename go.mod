module github.com/expose-go/expose

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/tidwall/gjson v1.18.0
	golang.org/x/text v0.44.0
)

require (
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.0 // indirect
)
