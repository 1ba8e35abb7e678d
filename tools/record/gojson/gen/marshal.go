package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"strconv"
	"unicode/utf8"
)

var runePool = []rune{
	'<', '>', '&', '"', '\\', '/', '\'', '\n', '\r', '\t', '\b', '\f', 0, 1, 0x1f, 0x7f, ' ', 'a', 'Z', '~',
	0x80, 0x85, 0x9f, 0xa0, 0xad, 0xe9, 0x2028, 0x2029, 0x200b, 0x200e, 0xfeff, 0xfffd, 0xffff, 0xe000,
	0x1f600, 0x10ffff, 0x1d11e, 0x4e2d, 0x0301, 0x061c, 0x3000, 0x2000, 0x0378, 0xd7ff, 0xf8ff, 0xe0001, 0x1000,
}

func randString(r *rand.Rand) string {
	n := r.Intn(8)
	var b []rune
	for i := 0; i < n; i++ {
		switch r.Intn(4) {
		case 0:
			b = append(b, rune(0x20+r.Intn(0x5f)))
		case 1:
			b = append(b, runePool[r.Intn(len(runePool))])
		case 2:
			for {
				c := rune(r.Intn(0x110000))
				if utf8.ValidRune(c) {
					b = append(b, c)
					break
				}
			}
		default:
			b = append(b, rune('a'+r.Intn(26)))
		}
	}
	return string(b)
}

func randFloat(r *rand.Rand) float64 {
	switch r.Intn(8) {
	case 0:
		for {
			f := math.Float64frombits(r.Uint64())
			if !math.IsNaN(f) && !math.IsInf(f, 0) {
				return f
			}
		}
	case 1:
		return float64(r.Int63n(1<<62)) * float64(1-2*r.Intn(2))
	case 2:
		return float64(r.Intn(10000)) / 100
	case 3:
		return math.Pow(10, float64(r.Intn(60)-30)) * float64(1+r.Intn(9))
	case 4:
		return math.Nextafter(math.Pow(10, float64(r.Intn(50)-25)), float64(r.Intn(3)-1))
	case 5:
		return r.NormFloat64() * math.Pow(10, float64(r.Intn(40)-20))
	case 6:
		return float64(r.Intn(200) - 100)
	default:
		return r.Float64()
	}
}

// randValue returns a Go value and its description for the TS side.
func randValue(r *rand.Rand, depth int) (interface{}, interface{}) {
	k := r.Intn(10)
	if depth > 3 && k >= 7 {
		k = r.Intn(7)
	}
	switch k {
	case 0:
		return nil, nil
	case 1:
		b := r.Intn(2) == 0
		return b, b
	case 2, 3:
		s := randString(r)
		return s, map[string]interface{}{"s": s}
	case 4, 5, 6:
		f := randFloat(r)
		return f, map[string]interface{}{"f": fmt.Sprintf("%016x", math.Float64bits(f))}
	case 7, 8:
		n := r.Intn(5)
		arr := make([]interface{}, 0, n)
		desc := make([]interface{}, 0, n)
		for i := 0; i < n; i++ {
			v, d := randValue(r, depth+1)
			arr = append(arr, v)
			desc = append(desc, d)
		}
		return arr, map[string]interface{}{"a": desc}
	default:
		n := r.Intn(5)
		m := map[string]interface{}{}
		desc := [][]interface{}{}
		for i := 0; i < n; i++ {
			key := randString(r)
			if r.Intn(2) == 0 {
				key = string(rune('a'+r.Intn(5))) + key
			}
			if _, dup := m[key]; dup {
				continue
			}
			v, d := randValue(r, depth+1)
			m[key] = v
			desc = append(desc, []interface{}{key, d})
		}
		return m, map[string]interface{}{"m": desc}
	}
}

type marshalOut struct {
	Desc      interface{} `json:"desc"`
	Marshal   string      `json:"marshal"`
	Indent2   string      `json:"indent2"`
	IndentPT  string      `json:"indentPT"`
	EncNoHTML string      `json:"encNoHTML"`
	EncIndent string      `json:"encIndent"`
}

func genMarshal() {
	r := rand.New(rand.NewSource(2))
	var out []marshalOut
	add := func(v interface{}, d interface{}) {
		m, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		i2, _ := json.MarshalIndent(v, "", "  ")
		ipt, _ := json.MarshalIndent(v, "> ", "\t")
		var b1, b2 bytes.Buffer
		e1 := json.NewEncoder(&b1)
		e1.SetEscapeHTML(false)
		e1.Encode(v)
		e2 := json.NewEncoder(&b2)
		e2.SetIndent("", "    ")
		e2.Encode(v)
		out = append(out, marshalOut{d, string(m), string(i2), string(ipt), b1.String(), b2.String()})
	}
	// hand-picked
	fixed := []string{"", "<script>&amp;</script>", "\u2028\u2029", "\x00\x01\x1f\x7f", "tab\there", "quote\"back\\slash/", "é😀中", "\ufeff\ufffd"}
	for _, s := range fixed {
		add(s, map[string]interface{}{"s": s})
	}
	add(map[string]interface{}{}, map[string]interface{}{"m": [][]interface{}{}})
	add([]interface{}{}, map[string]interface{}{"a": []interface{}{}})
	add([]interface{}{map[string]interface{}{}, []interface{}{}}, map[string]interface{}{"a": []interface{}{map[string]interface{}{"m": [][]interface{}{}}, map[string]interface{}{"a": []interface{}{}}}})
	for i := 0; i < 600; i++ {
		v, d := randValue(r, 0)
		add(v, d)
	}
	writeLines("marshal.jsonl", out)
}

type floatOut struct {
	Bits string `json:"bits"`
	JSON string `json:"json"`
	G    string `json:"g"`
	E    string `json:"e"`
	F    string `json:"f"`
	V    string `json:"v"`
	E3   string `json:"e3"`
	F2   string `json:"f2"`
	G5   string `json:"g5"`
}

func genFloats() {
	r := rand.New(rand.NewSource(3))
	fs := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 100, 1e6, 1e7, 123456789, 1e20, 1e21, 1e22,
		999999999999999999999.0, 1e-6, 1e-7, 9.999999e-7, 0.000001, 0.0000011, 5e-324, math.SmallestNonzeroFloat64,
		math.MaxFloat64, -math.MaxFloat64, 2.2250738585072014e-308, 1 << 53, 1<<53 + 2, 9007199254740993, 1e15, 1e16,
		1e17, 123456789012345680000, 0.1 + 0.2, 1.5, 2.5, 1e100, 1e-100, 1.7976931348623157e308, 4.9406564584124654e-324,
		123e-20, 1e23, 8.41e21, 5e-7, 1.23456789e-7, 65536, 4294967296, 18446744073709551616, 9.223372036854776e18,
		math.NaN(), math.Inf(1), math.Inf(-1)}
	for i := 0; i < 1500; i++ {
		fs = append(fs, randFloat(r))
	}
	var out []floatOut
	for _, f := range fs {
		var js string
		b, err := json.Marshal(f)
		if err != nil {
			js = "ERR:" + err.Error()
		} else {
			js = string(b)
		}
		out = append(out, floatOut{
			Bits: fmt.Sprintf("%016x", math.Float64bits(f)),
			JSON: js,
			G:    strconv.FormatFloat(f, 'g', -1, 64),
			E:    strconv.FormatFloat(f, 'e', -1, 64),
			F:    strconv.FormatFloat(f, 'f', -1, 64),
			V:    fmt.Sprint(f),
			E3:   strconv.FormatFloat(f, 'e', 3, 64),
			F2:   strconv.FormatFloat(f, 'f', 2, 64),
			G5:   strconv.FormatFloat(f, 'g', 5, 64),
		})
	}
	writeLines("floats.jsonl", out)
}
