package cli

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"sync"

	"github.com/spf13/cobra"

	"kscope/apierr"
)

// profiling writes a CPU profile and a heap profile of one kscope run (--cpuprofile, --memprofile), for
// `go tool pprof`, and an execution trace (--trace: every goroutine's timeline, its waits on the network, the
// collections; for `go tool trace`). Profiles are written however the command ends: a normal return, an error, a panic the UI
// recovered, or SIGTERM/SIGHUP/SIGINT (after which the signal is re-raised, so the exit status is the
// signal's). While --memprofile is set, SIGUSR1 writes a snapshot of the live heap to FILE.1, FILE.2, … on
// Unix (snapshotSignals); Windows has no such signal, and there the heap profile is written on quit only
// (profile_unix.go, profile_other.go). Its methods are safe for concurrent use.
type profiling struct {
	cpuPath   string
	memPath   string
	tracePath string

	mu        sync.Mutex
	cpuFile   *os.File
	traceFile *os.File
	running   bool
	snapshots int
	signals   chan os.Signal
	done      chan struct{}
}

// addProfiling registers --cpuprofile and --memprofile on root (for every command) and wraps the RunE of
// root and of each subcommand added so far, so that profiling covers the whole run. Call it after the
// subcommands are added.
func addProfiling(root *cobra.Command) {
	p := &profiling{}
	root.PersistentFlags().StringVar(&p.cpuPath, "cpuprofile", "", "write a CPU profile of this run to FILE (go tool pprof)")
	root.PersistentFlags().StringVar(&p.tracePath, "trace", "", "write an execution trace of this run to FILE (go tool trace)")
	root.PersistentFlags().StringVar(&p.memPath, "memprofile", "", memprofileUsage)
	var wrap func(cmd *cobra.Command)
	wrap = func(cmd *cobra.Command) {
		if run := cmd.RunE; run != nil {
			cmd.RunE = func(cmd *cobra.Command, args []string) (err error) {
				if err := p.start(); err != nil {
					return err
				}
				defer func() {
					if serr := p.stop(); err == nil {
						err = serr
					}
				}()
				return run(cmd, args)
			}
		}
		for _, sub := range cmd.Commands() {
			wrap(sub)
		}
	}
	wrap(root)
}

// start begins CPU profiling and installs the signal handlers; it does nothing without a profile flag.
func (p *profiling) start() error {
	if p.cpuPath == "" && p.memPath == "" && p.tracePath == "" {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cpuPath != "" {
		f, err := os.Create(p.cpuPath)
		if err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return fmt.Errorf("cpu profile: %w", err)
		}
		p.cpuFile = f
	}
	if p.tracePath != "" {
		f, err := os.Create(p.tracePath)
		if err == nil {
			err = trace.Start(f)
		}
		if err != nil {
			if f != nil {
				f.Close()
			}
			p.stopCPU()
			return fmt.Errorf("trace: %w", err)
		}
		p.traceFile = f
	}
	p.running = true
	p.signals = make(chan os.Signal, 1)
	p.done = make(chan struct{})
	signal.Notify(p.signals, profileSignals(p.memPath != "")...)
	go p.handleSignals(p.signals, p.done)
	return nil
}

// profileSignals are the signals a profiled run handles: those that end kscope (endSignals) and, when
// snapshots is set (--memprofile), those that ask for a snapshot of the live heap (snapshotSignals, none on
// Windows). Pure.
func profileSignals(snapshots bool) []os.Signal {
	sigs := slices.Clone(endSignals)
	if snapshots {
		sigs = append(sigs, snapshotSignals...)
	}
	return sigs
}

// handleSignals writes heap snapshots on a snapshot signal (SIGUSR1); on a terminating signal it writes the
// profiles and re-raises the signal with its default action restored (reraise).
func (p *profiling) handleSignals(signals <-chan os.Signal, done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		case sig := <-signals:
			if slices.Contains(snapshotSignals, sig) {
				p.snapshot()
				continue
			}
			if err := p.stop(); err != nil {
				fmt.Fprintf(os.Stderr, "error: %s\n", apierr.OneLine(err.Error()))
			}
			signal.Reset(sig)
			reraise(sig)
			return
		}
	}
}

// snapshot writes the live heap to the next FILE.N.
func (p *profiling) snapshot() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.running {
		return
	}
	p.snapshots++
	if err := writeHeapProfile(fmt.Sprintf("%s.%d", p.memPath, p.snapshots)); err != nil {
		fmt.Fprintf(os.Stderr, "error: %s\n", apierr.OneLine(err.Error()))
	}
}

// stop ends CPU profiling and writes the heap profile; later calls do nothing.
func (p *profiling) stop() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.running {
		return nil
	}
	p.running = false
	signal.Stop(p.signals)
	close(p.done)
	errs := []error{p.stopCPU()}
	if p.traceFile != nil {
		trace.Stop()
		if err := p.traceFile.Close(); err != nil {
			errs = append(errs, fmt.Errorf("trace: %w", err))
		}
		p.traceFile = nil
	}
	if p.memPath != "" {
		errs = append(errs, writeHeapProfile(p.memPath))
	}
	return errors.Join(errs...)
}

// stopCPU ends CPU profiling, if it runs, and closes its file (holding p.mu).
func (p *profiling) stopCPU() error {
	if p.cpuFile == nil {
		return nil
	}
	pprof.StopCPUProfile()
	err := p.cpuFile.Close()
	p.cpuFile = nil
	if err != nil {
		return fmt.Errorf("cpu profile: %w", err)
	}
	return nil
}

// writeHeapProfile writes the heap profile (after a GC, so in-use figures are current) to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("heap profile: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	return nil
}
