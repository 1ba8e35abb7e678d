// Command gen writes the golden tables of the TypeScript gojson emulation from real Go output.
//
// Usage (see ../../README.md): go run . <inputs-dir> <golden-dir>
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
)

type decodeCase struct {
	Schema string `json:"schema"`
	Init   string `json:"init,omitempty"`
	Input  string `json:"input"`
}

type decodeOut struct {
	Schema string          `json:"schema"`
	Init   string          `json:"init,omitempty"`
	Input  string          `json:"input"`
	Error  *string         `json:"error"`
	Value  json.RawMessage `json:"value"`
	// Marshal is json.Marshal of the decoded value ("ERR:" + message on error).
	Marshal string `json:"marshal"`
}

var inDir, outDir string

func readJSON(name string, v interface{}) {
	b, err := os.ReadFile(filepath.Join(inDir, name))
	if err != nil {
		panic(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		panic(err)
	}
}

// writeLines writes a slice as JSON Lines (one record per line).
func writeLines(name string, items interface{}) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	v := reflect.ValueOf(items)
	for i := 0; i < v.Len(); i++ {
		if err := enc.Encode(v.Index(i).Interface()); err != nil {
			panic(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outDir, name), buf.Bytes(), 0o644); err != nil {
		panic(err)
	}
}

func errPtr(err error) *string {
	if err == nil {
		return nil
	}
	s := err.Error()
	return &s
}

func genDecode() {
	var cases []decodeCase
	readJSON("decode-in.json", &cases)
	out := make([]decodeOut, 0, len(cases))
	for _, c := range cases {
		t := newTarget(c.Schema, c.Init)
		err := json.Unmarshal([]byte(c.Input), t)
		var buf bytes.Buffer
		dump(&buf, reflect.ValueOf(t))
		m, merr := json.Marshal(t)
		ms := string(m)
		if merr != nil {
			ms = "ERR:" + merr.Error()
		}
		out = append(out, decodeOut{c.Schema, c.Init, c.Input, errPtr(err), json.RawMessage(buf.Bytes()), ms})
	}
	writeLines("decode.jsonl", out)
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gen <inputs-dir> <golden-dir>")
		os.Exit(2)
	}
	inDir, outDir = os.Args[1], os.Args[2]
	genDecode()
	genSyntax()
	genMarshal()
	genFloats()
	genQuote()
	genNet()
	genIsPrint(filepath.Join(outDir, "..", "isprint-table.ts"))
}
