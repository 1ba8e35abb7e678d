// Mirror of github.com/containernetworking/plugins/pkg/ip (IP type only).
package ip

import (
	"fmt"
	"net"
	"strings"
)

type IP struct {
	net.IPNet
}

func newIP(ip net.IP, mask net.IPMask) *IP {
	return &IP{IPNet: net.IPNet{IP: ip, Mask: mask}}
}

func ParseIP(s string) *IP {
	if strings.ContainsAny(s, "/") {
		ip, ipNet, err := net.ParseCIDR(s)
		if err != nil {
			return nil
		}
		return newIP(ip, ipNet.Mask)
	}
	ip := net.ParseIP(s)
	if ip == nil {
		return nil
	}
	return newIP(ip, nil)
}

func (i *IP) String() string {
	if len(i.Mask) > 0 {
		return i.IPNet.String()
	}
	return i.IP.String()
}

func (i *IP) MarshalText() ([]byte, error) {
	if len(i.IP) == 0 {
		return []byte{}, nil
	}
	return []byte(i.String()), nil
}

func (i *IP) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*i = IP{}
		return nil
	}
	ip := ParseIP(string(b))
	if ip == nil {
		return fmt.Errorf("invalid IP address %s", string(b))
	}
	*i = *ip
	return nil
}
