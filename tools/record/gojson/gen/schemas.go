package main

import (
	"net"

	"gojsongolden/allocator"
	"gojsongolden/ip"
	"gojsongolden/types"
)

// Mirror of the bridge plugin's NetConf (plugins v1.1.1, package main).
type BridgeArgs struct {
	Mac string `json:"mac,omitempty"`
}

type NetConf struct {
	types.NetConf
	BrName       string `json:"bridge"`
	IsGW         bool   `json:"isGateway"`
	IsDefaultGW  bool   `json:"isDefaultGateway"`
	ForceAddress bool   `json:"forceAddress"`
	IPMasq       bool   `json:"ipMasq"`
	MTU          int    `json:"mtu"`
	HairpinMode  bool   `json:"hairpinMode"`
	PromiscMode  bool   `json:"promiscMode"`
	Vlan         int    `json:"vlan"`
	MacSpoofChk  bool   `json:"macspoofchk,omitempty"`
	EnableDad    bool   `json:"enabledad,omitempty"`

	Args struct {
		Cni BridgeArgs `json:"cni,omitempty"`
	} `json:"args,omitempty"`
	RuntimeConfig struct {
		Mac string `json:"mac,omitempty"`
	} `json:"runtimeConfig,omitempty"`

	mac string
}

type Mode string
type Port uint16

type Named interface{ M() }

type Inner struct {
	A int    `json:"a"`
	B string `json:"b"`
	C []int  `json:"c"`
	P *Inner `json:"p"`
}

type Kinds struct {
	I    int     `json:"i"`
	I8   int8    `json:"i8"`
	I16  int16   `json:"i16"`
	I32  int32   `json:"i32"`
	I64  int64   `json:"i64"`
	U    uint    `json:"u"`
	U8   uint8   `json:"u8"`
	U16  uint16  `json:"u16"`
	U32  uint32  `json:"u32"`
	U64  uint64  `json:"u64"`
	F32  float32 `json:"f32"`
	F64  float64 `json:"f64"`
	Str  string  `json:"str"`
	B    bool    `json:"b"`
	Any  interface{}
	NE   Named `json:"ne"`
	Mode Mode  `json:"mode"`
	Port Port  `json:"port"`

	PI     *int    `json:"pi"`
	PS     *string `json:"ps"`
	PPI    **int   `json:"ppi"`
	PInner *Inner  `json:"pinner"`

	SS      []string      `json:"ss"`
	SI      []int         `json:"si"`
	SInner  []Inner       `json:"sinner"`
	SPInner []*Inner      `json:"spinner"`
	SAny    []interface{} `json:"sany"`
	SSS     [][]string    `json:"sss"`

	MSS      map[string]string      `json:"mss"`
	MSI      map[string]int         `json:"msi"`
	MSAny    map[string]interface{} `json:"msany"`
	MSInner  map[string]Inner       `json:"msinner"`
	MSPInner map[string]*Inner      `json:"mspinner"`
	MSSS     map[string][]string    `json:"msss"`
	MMode    map[Mode]Port          `json:"mmode"`

	QI  int     `json:"qi,string"`
	QB  bool    `json:",string"`
	QS  string  `json:"qs,string"`
	QF  float64 `json:"qf,string"`
	QP  *int    `json:"qp,string"`
	QSS []int   `json:"qss,string"`

	Kelvin string `json:"k"`
	LongS  string `json:"s"`
	Mixed  string `json:"MiXeD"`
	Under  string `json:"a_b"`
	Dash   string `json:"x-y"`
	Uni    string `json:"Ünï"`
	Skip   string `json:"-"`
	Dash2  string `json:"-,"`
	Bad    string `json:"bad name!"`
	Empty  string `json:",omitempty"`

	Emb  Inner `json:"emb"`
	Anon struct {
		Q int `json:"q"`
		R struct {
			T string `json:"t"`
		} `json:"r"`
	} `json:"anon"`

	IP     net.IP         `json:"ip"`
	Net    types.IPNet    `json:"net"`
	PNet   *types.IPNet   `json:"pnet"`
	Routes []*types.Route `json:"routes"`
	IPs    []*ip.IP       `json:"ips"`
	PIP    *net.IP        `json:"pip"`
}

type DA struct {
	X    int `json:"x"`
	S    string
	T    string `json:"tt"`
	U    string
	Kk   string `json:"kk"`
	Name string
	DC
}

type DB struct {
	X  int `json:"x"`
	S  string
	T2 string `json:"T"`
	W  string `json:"w"`
	Nm string `json:"Name"`
}

type DC struct {
	Deep string `json:"deep"`
	W    int    `json:"w"`
}

type DE struct {
	E string `json:"e"`
}

type Dom struct {
	DA
	*DB
	DE `json:"de"`
	U  int `json:"U"`
	V  string
}

func newTarget(schema, init string) interface{} {
	switch schema {
	case "bridge":
		if init == "default" {
			return &NetConf{BrName: "cni0"}
		}
		return &NetConf{}
	case "typesNetConf":
		return &types.NetConf{}
	case "hostlocal":
		return &allocator.Net{}
	case "kinds":
		k := &Kinds{}
		if init == "prefilled" {
			seven := 7
			k.Str = "old"
			k.I = 42
			k.SS = []string{"o1", "o2", "o3"}
			k.SInner = []Inner{{A: 1, B: "x"}, {A: 2, B: "y"}}
			k.MSS = map[string]string{"keep": "v"}
			k.PInner = &Inner{A: 7, B: "old", C: []int{1, 2}}
			k.PI = &seven
			k.Any = map[string]interface{}{"old": true}
			k.MSInner = map[string]Inner{"m": {A: 5, B: "five"}}
		}
		return k
	case "dom":
		return &Dom{}
	case "int":
		return new(int)
	case "uint8":
		return new(uint8)
	case "float64":
		return new(float64)
	case "string":
		return new(string)
	case "bool":
		return new(bool)
	case "any":
		return new(interface{})
	case "ptrint":
		return new(*int)
	case "strings":
		return new([]string)
	case "mapint":
		return new(map[string]int)
	case "inner":
		return new(Inner)
	case "inners":
		return new([]Inner)
	case "mapinner":
		return new(map[string]Inner)
	case "anon":
		return new(struct {
			A int `json:"a"`
			B struct {
				C string `json:"c,omitempty"`
			} `json:"b"`
		})
	case "ipnet":
		return new(types.IPNet)
	case "route":
		return new(types.Route)
	case "routes":
		return new([]*types.Route)
	case "netip":
		return new(net.IP)
	case "ipip":
		return new(ip.IP)
	case "named":
		return new(Named)
	}
	panic("unknown schema " + schema)
}
