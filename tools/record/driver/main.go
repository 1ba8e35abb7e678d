// cnidriver: the libcni side of the cnisim recorder.
//
// It is built against the REAL libcni v1.1.2 (Debian's golang-github-appc-cni-dev, in GOPATH
// mode, no network) and used in two ways, chosen by the name it is started under:
//
//  1. As "cnidriver <request.json>": it loads a conflist file with libcni.ConfListFromFile and
//     performs ONE libcni operation (AddNetworkList, CheckNetworkList, DelNetworkList or
//     GetVersionInfo) with the given runtime conf and cache dir, then prints a JSON report of
//     what libcni returned (result, error string and the error's structure) on stdout.
//
//     libcni finds plugins in CNI_PATH (the recorder's dir of bash "golden shims") with its own
//     FindInPath; our invoke.Exec then runs the plugin through the "tap" (2.) instead of the
//     shim, so that the top-level plugin process is the real binary, started by libcni's own
//     RawExec (so every error string, result conversion and cache file is libcni's).
//
//  2. As "<tapDir>/<plugin>" (a symlink to this binary): the tap. It reads its stdin, runs
//     /usr/lib/cni/<plugin> with exactly the same environment and stdin, records env, stdin,
//     stdout, stderr, exit code and the child's pid in <tapDir>/../taplog/, then replays
//     stdout/stderr/exit code to its caller. It adds nothing to the plugin's environment.
//
// Build (see build-driver.sh): GO111MODULE=off GOPATH=/usr/share/gocode go build -o cnidriver .
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/containernetworking/cni/libcni"
	"github.com/containernetworking/cni/pkg/invoke"
	"github.com/containernetworking/cni/pkg/types"
	"github.com/containernetworking/cni/pkg/version"
)

const realPluginDir = "/usr/lib/cni"

// ---------------------------------------------------------------------------------------------
// tap mode

type tapRecord struct {
	Plugin   string   `json:"plugin"`
	Argv0    string   `json:"argv0"`
	Env      []string `json:"env"`
	Stdin    string   `json:"stdin"`
	Stdout   string   `json:"stdout"`
	Stderr   string   `json:"stderr"`
	ExitCode int      `json:"exitCode"`
	Pid      int      `json:"pid"`
	StartNs  int64    `json:"startNs"`
	EndNs    int64    `json:"endNs"`
}

func tap(name string) {
	start := time.Now().UnixNano()
	stdin, _ := io.ReadAll(os.Stdin)
	var stdout, stderr bytes.Buffer
	real := filepath.Join(realPluginDir, name)
	// a plugin that is not in realPluginDir (flannel): the sandbox links its binary as
	// <tap dir>/.real/<name>
	if extra := filepath.Join(filepath.Dir(os.Args[0]), ".real", name); fileExists(extra) {
		real = extra
	}
	cmd := exec.Command(real)
	cmd.Env = os.Environ()
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	code := 0
	pid := 0
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "cnidriver tap: cannot start %s: %v\n", name, err)
		os.Exit(127)
	}
	pid = cmd.Process.Pid
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				code = 128 + int(ws.Signal())
			} else {
				code = ee.ExitCode()
			}
		} else {
			code = 126
		}
	}
	rec := tapRecord{
		Plugin: name, Argv0: os.Args[0], Env: os.Environ(), Stdin: string(stdin),
		Stdout: stdout.String(), Stderr: stderr.String(), ExitCode: code, Pid: pid,
		StartNs: start, EndNs: time.Now().UnixNano(),
	}
	logDir := filepath.Join(filepath.Dir(os.Args[0]), "..", "taplog")
	if data, err := json.Marshal(rec); err == nil {
		_ = os.MkdirAll(logDir, 0o700)
		_ = os.WriteFile(filepath.Join(logDir, fmt.Sprintf("%019d-%d.json", start, pid)), data, 0o600)
	}
	_, _ = os.Stdout.Write(stdout.Bytes())
	_, _ = os.Stderr.Write(stderr.Bytes())
	os.Exit(code)
}

// ---------------------------------------------------------------------------------------------
// driver mode

type request struct {
	Op             string                 `json:"op"` // ADD | CHECK | DEL | VERSION
	ConflistFile   string                 `json:"conflistFile"`
	CNIPath        []string               `json:"cniPath"`
	CacheDir       string                 `json:"cacheDir"`
	TapDir         string                 `json:"tapDir"`
	ContainerID    string                 `json:"containerId"`
	NetNS          string                 `json:"netns"`
	IfName         string                 `json:"ifName"`
	Args           [][2]string            `json:"args"`
	CapabilityArgs map[string]interface{} `json:"capabilityArgs"`
	Plugin         string                 `json:"plugin"` // VERSION
}

type errInfo struct {
	Message string `json:"message"`
	// set when errors.As finds a *types.Error in the chain
	TypesError *types.Error `json:"typesError,omitempty"`
	// errors.Unwrap(err).Error(), when err wraps another error (fmt.Errorf %w)
	Inner *string `json:"inner,omitempty"`
}

type cacheProbe struct {
	Exists bool   `json:"exists"`
	Read   bool   `json:"read"`            // GetNetworkListCachedResult returned a result
	Error  string `json:"error,omitempty"` // GetNetworkListCachedResult failed
}

type response struct {
	Ok                bool            `json:"ok"`
	Result            json.RawMessage `json:"result,omitempty"`
	SupportedVersions []string        `json:"supportedVersions,omitempty"`
	Error             *errInfo        `json:"error,omitempty"`
	// libcni failed to load the conflist file (ConfListFromFile); no operation ran
	LoadError bool `json:"loadError,omitempty"`
	// list facts, as libcni parsed them
	ListName     string `json:"listName"`
	ListVersion  string `json:"listVersion"`
	DisableCheck bool   `json:"disableCheck"`
	NPlugins     int    `json:"nPlugins"`
	// version.GreaterThanOrEqualTo(list.CNIVersion, "0.4.0") (libcni's own gate for CHECK and
	// for reading the cache on DEL); gteError when it failed
	Gte040   bool   `json:"gte040"`
	GteError string `json:"gteError,omitempty"`
	// how many times libcni called FindInPath, and the plugin paths it executed, in order
	FindCalls int      `json:"findCalls"`
	Execs     []string `json:"execs"`
	// the cache file before and after the operation
	CacheFile   string     `json:"cacheFile"`
	CacheFileE  string     `json:"cacheFileError,omitempty"`
	CacheBefore cacheProbe `json:"cacheBefore"`
	CacheAfter  bool       `json:"cacheExistsAfter"`
}

type recExec struct {
	raw       *invoke.RawExec
	dec       version.PluginDecoder
	tapDir    string
	findCalls int
	execs     []string
}

func (e *recExec) ExecPlugin(ctx context.Context, pluginPath string, stdinData []byte, environ []string) ([]byte, error) {
	e.execs = append(e.execs, pluginPath)
	return e.raw.ExecPlugin(ctx, filepath.Join(e.tapDir, filepath.Base(pluginPath)), stdinData, environ)
}

func (e *recExec) FindInPath(plugin string, paths []string) (string, error) {
	e.findCalls++
	return invoke.FindInPath(plugin, paths)
}

func (e *recExec) Decode(jsonBytes []byte) (version.PluginInfo, error) {
	return e.dec.Decode(jsonBytes)
}

func describe(err error) *errInfo {
	if err == nil {
		return nil
	}
	ei := &errInfo{Message: err.Error()}
	var te *types.Error
	if errors.As(err, &te) {
		ei.TypesError = te
	}
	if u := errors.Unwrap(err); u != nil {
		s := u.Error()
		ei.Inner = &s
	}
	return ei
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func driver(reqFile string) {
	data, err := os.ReadFile(reqFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var req request
	if err := json.Unmarshal(data, &req); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	rx := &recExec{raw: &invoke.RawExec{Stderr: io.Discard}, tapDir: req.TapDir}
	cni := libcni.NewCNIConfigWithCacheDir(req.CNIPath, req.CacheDir, rx)
	ctx := context.Background()
	resp := response{Execs: []string{}}
	out := func() {
		resp.FindCalls = rx.findCalls
		resp.Execs = append(resp.Execs, rx.execs...)
		enc := json.NewEncoder(os.Stdout)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(resp)
	}

	if req.Op == "VERSION" {
		pi, err := cni.GetVersionInfo(ctx, req.Plugin)
		if err != nil {
			resp.Error = describe(err)
		} else {
			resp.Ok = true
			resp.SupportedVersions = pi.SupportedVersions()
		}
		out()
		return
	}

	list, err := libcni.ConfListFromFile(req.ConflistFile)
	if err != nil {
		resp.LoadError = true
		resp.Error = describe(err)
		out()
		return
	}
	resp.ListName = list.Name
	resp.ListVersion = list.CNIVersion
	resp.DisableCheck = list.DisableCheck
	resp.NPlugins = len(list.Plugins)
	if gte, err := version.GreaterThanOrEqualTo(list.CNIVersion, "0.4.0"); err != nil {
		resp.GteError = err.Error()
	} else {
		resp.Gte040 = gte
	}

	rt := &libcni.RuntimeConf{
		ContainerID:    req.ContainerID,
		NetNS:          req.NetNS,
		IfName:         req.IfName,
		Args:           req.Args,
		CapabilityArgs: req.CapabilityArgs,
	}
	if req.CacheDir != "" && list.Name != "" && req.ContainerID != "" && req.IfName != "" {
		resp.CacheFile = filepath.Join(req.CacheDir, "results", fmt.Sprintf("%s-%s-%s", list.Name, req.ContainerID, req.IfName))
		resp.CacheBefore.Exists = exists(resp.CacheFile)
		// Probe the cache the way CHECK/DEL read it (read-only), with libcni itself. The probe
		// goes through a separate exec so that it cannot count as a plugin step.
		probe := libcni.NewCNIConfigWithCacheDir(req.CNIPath, req.CacheDir, nil)
		if r, perr := probe.GetNetworkListCachedResult(list, rt); perr != nil {
			resp.CacheBefore.Error = perr.Error()
		} else if r != nil {
			resp.CacheBefore.Read = true
		}
	} else {
		resp.CacheFileE = "no cache file path"
	}

	switch req.Op {
	case "ADD":
		res, err := cni.AddNetworkList(ctx, list, rt)
		if err != nil {
			resp.Error = describe(err)
		} else {
			resp.Ok = true
			b, merr := json.Marshal(res)
			if merr != nil {
				resp.Error = describe(fmt.Errorf("recorder: cannot marshal result: %w", merr))
			}
			resp.Result = b
		}
	case "CHECK":
		err = cni.CheckNetworkList(ctx, list, rt)
		resp.Ok = err == nil
		resp.Error = describe(err)
	case "DEL":
		err = cni.DelNetworkList(ctx, list, rt)
		resp.Ok = err == nil
		resp.Error = describe(err)
	default:
		fmt.Fprintf(os.Stderr, "unknown op %q\n", req.Op)
		os.Exit(2)
	}
	if resp.CacheFile != "" {
		resp.CacheAfter = exists(resp.CacheFile)
	}
	out()
}

func main() {
	name := filepath.Base(os.Args[0])
	if name != "cnidriver" && !strings.HasPrefix(name, "cnidriver.") {
		tap(name)
		return
	}
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: cnidriver <request.json>")
		os.Exit(2)
	}
	driver(os.Args[1])
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
