package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"sort"
	"strconv"
)

// dump writes an exact, order-preserving description of a decoded Go value:
// structs by exported Go field name, nil pointers/slices/maps/interfaces as null,
// byte slices (net.IP, net.IPMask) as hex strings.
func dump(buf *bytes.Buffer, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			buf.WriteString("null")
			return
		}
		dump(buf, v.Elem())
	case reflect.Struct:
		buf.WriteByte('{')
		t := v.Type()
		first := true
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			if !first {
				buf.WriteByte(',')
			}
			first = false
			writeString(buf, f.Name)
			buf.WriteByte(':')
			dump(buf, v.Field(i))
		}
		buf.WriteByte('}')
	case reflect.Slice:
		if v.IsNil() {
			buf.WriteString("null")
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			writeString(buf, hex.EncodeToString(v.Bytes()))
			return
		}
		buf.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				buf.WriteByte(',')
			}
			dump(buf, v.Index(i))
		}
		buf.WriteByte(']')
	case reflect.Map:
		if v.IsNil() {
			buf.WriteString("null")
			return
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeString(buf, k.String())
			buf.WriteByte(':')
			dump(buf, v.MapIndex(k))
		}
		buf.WriteByte('}')
	case reflect.String:
		writeString(buf, v.String())
	case reflect.Bool:
		buf.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		buf.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		buf.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		b, err := json.Marshal(v.Float())
		if err != nil {
			panic(err)
		}
		buf.Write(b)
	default:
		panic("dump: unsupported kind " + v.Kind().String())
	}
}

func writeString(buf *bytes.Buffer, s string) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	buf.Write(bytes.TrimRight(b.Bytes(), "\n"))
}
