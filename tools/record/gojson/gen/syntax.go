package main

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"strings"
	"unicode/utf8"
)

type syntaxOut struct {
	In       string  `json:"in"`
	Syntax   *string `json:"syntax"`
	IfaceErr *string `json:"ifaceErr"`
	Iface    *string `json:"iface"`
	Indent   *string `json:"indent"` // nil for long inputs (indenting deep nesting is quadratic)
	Compact  string  `json:"compact"`
}

var mutationTokens = []string{
	"{", "}", "[", "]", ",", ":", "\"", "\\", " ", "\t", "\n", "\r", "\x00", "\x01", "\x1f", "\x7f",
	"'", "t", "f", "n", "u", "e", "E", "+", "-", ".", "0", "1", "9", "x", "/", "*", "#",
	"true", "false", "null", "nul", "tru", "fals", "\\u", "\\u12", "\\x", "\\'", "\\/", "1e", "1.", "-0", "01", ".5",
	"é", "€", "😀", "\u2028", "\u00a0", "\u0085", "\ufeff", "\ufffd", "\u200b", "Ā", "\u0600", "\U0001F600",
	"{}", "[]", "\"\"", "1e999", "-1e999", "1e-999", "123456789012345678901234567890",
}

var syntaxBases = []string{
	`{"cniVersion":"1.0.0","name":"mynet","type":"bridge","bridge":"cni0","isGateway":true,"ipMasq":true,"ipam":{"type":"host-local","subnet":"10.22.0.0/16","routes":[{"dst":"0.0.0.0/0"}]}}`,
	`{"a":[1,2.5,-3e10,true,false,null,"s\n\"x\u00e9"],"b":{"c":{}},"d":[]}`,
	`[{"k":"v"},{"k":[0.000001,1e21,123456789012345678]}]`,
	`"just a string"`,
	`-12.5e+3`,
	`{"x":"\ud83d\ude00 \u2028 <&>"}`,
	`  {  "a" : [ 1 , { "b" : null } ] , "c" : "d"  }  `,
}

func genSyntax() {
	var inputs []string
	readJSON("syntax-in.json", &inputs)
	r := rand.New(rand.NewSource(1))
	for len(inputs) < 1500 {
		base := []rune(syntaxBases[r.Intn(len(syntaxBases))])
		n := 1 + r.Intn(3)
		for k := 0; k < n; k++ {
			pos := r.Intn(len(base) + 1)
			switch r.Intn(5) {
			case 0: // insert token
				tok := []rune(mutationTokens[r.Intn(len(mutationTokens))])
				base = append(base[:pos], append(tok, base[pos:]...)...)
			case 1: // delete span
				end := pos + 1 + r.Intn(3)
				if end > len(base) {
					end = len(base)
				}
				base = append(base[:pos], base[end:]...)
			case 2: // replace char
				if pos < len(base) {
					tok := []rune(mutationTokens[r.Intn(len(mutationTokens))])
					base = append(base[:pos], append(tok, base[pos+1:]...)...)
				}
			case 3: // truncate
				base = base[:pos]
			case 4: // duplicate span
				end := pos + r.Intn(6)
				if end > len(base) {
					end = len(base)
				}
				span := append([]rune{}, base[pos:end]...)
				base = append(base[:end], append(span, base[end:]...)...)
			}
		}
		s := string(base)
		if utf8.ValidString(s) && !strings.ContainsRune(s, utf8.RuneError) || r.Intn(4) == 0 {
			inputs = append(inputs, s)
		}
	}
	out := make([]syntaxOut, 0, len(inputs))
	for _, in := range inputs {
		if !utf8.ValidString(in) {
			continue
		}
		o := syntaxOut{In: in}
		var ib, cb bytes.Buffer
		if len(in) <= 2000 {
			var s string
			if err := json.Indent(&ib, []byte(in), "> ", "  "); err != nil {
				s = "ERR:" + err.Error()
			} else {
				s = ib.String()
			}
			o.Indent = &s
		}
		if err := json.Compact(&cb, []byte(in)); err != nil {
			o.Compact = "ERR:" + err.Error()
		} else {
			o.Compact = cb.String()
		}
		var v interface{}
		if !json.Valid([]byte(in)) {
			var x interface{}
			o.Syntax = errPtr(json.Unmarshal([]byte(in), &x))
		} else {
			err := json.Unmarshal([]byte(in), &v)
			o.IfaceErr = errPtr(err)
			b, merr := json.Marshal(v)
			if merr != nil {
				panic(merr)
			}
			s := string(b)
			o.Iface = &s
		}
		out = append(out, o)
	}
	writeLines("syntax.jsonl", out)
}
