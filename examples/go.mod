module github.com/expose-go/expose/examples

go 1.26

require github.com/expose-go/expose v0.0.0

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/tidwall/gjson v1.18.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.0 // indirect
)

replace github.com/expose-go/expose => ../
