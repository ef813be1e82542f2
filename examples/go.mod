module github.com/expose-go/expose/examples

go 1.26

require github.com/expose-go/expose v0.0.0

replace github.com/expose-go/expose => ../
