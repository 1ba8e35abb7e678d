package main

import (
	"encoding/hex"
	"net"

	"gojsongolden/ip"
	"gojsongolden/types"
)

type netOut struct {
	In         string  `json:"in"`
	IP         *string `json:"ip"`
	IPString   string  `json:"ipString"`
	CIDRErr    *string `json:"cidrErr"`
	CIDRIP     *string `json:"cidrIP"`
	CIDRNetIP  *string `json:"cidrNetIP"`
	CIDRMask   *string `json:"cidrMask"`
	CIDRString string  `json:"cidrString"`
	TypesStr   string  `json:"typesString"`
	PlugIP     *string `json:"plugIP"`
}

func hexPtr(b []byte) *string {
	if b == nil {
		return nil
	}
	s := hex.EncodeToString(b)
	return &s
}

func genNet() {
	var ins []string
	readJSON("net-in.json", &ins)
	var out []netOut
	for _, in := range ins {
		o := netOut{In: in}
		p := net.ParseIP(in)
		o.IP = hexPtr(p)
		o.IPString = p.String()
		cip, cn, err := net.ParseCIDR(in)
		o.CIDRErr = errPtr(err)
		if err == nil {
			o.CIDRIP = hexPtr(cip)
			o.CIDRNetIP = hexPtr(cn.IP)
			o.CIDRMask = hexPtr(cn.Mask)
			o.CIDRString = cn.String()
			tn, _ := types.ParseCIDR(in)
			o.TypesStr = tn.String()
		}
		if pi := ip.ParseIP(in); pi != nil {
			s := pi.String()
			o.PlugIP = &s
		}
		out = append(out, o)
	}
	writeLines("net.jsonl", out)
}
