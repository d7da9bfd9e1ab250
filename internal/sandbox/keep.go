package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// maxKept is the largest file Keep saves a copy of, in bytes: config and
// settings files are far smaller.
const maxKept = 64 << 10

// Kept is the state of protected paths inside a writable directory before
// a jailed command runs. Landlock grants rights on whole directory
// hierarchies, so a jail that may write the workspace may write the
// protected files inside it too (.git/config, .git/hooks, agent and editor
// settings); Kept lets guardsh undo that afterwards.
type Kept struct {
	files map[string]keptFile
	dirs  map[string][]string // directory → names of its entries
}

type keptFile struct {
	exists bool
	mode   fs.FileMode
	size   int64
	mtime  int64
	data   []byte // nil when larger than maxKept
}

// Keep records the protected paths: each file's metadata and contents
// (up to maxKept bytes), and for each directory the names of its entries
// and their files. Paths that do not exist are recorded as absent.
func Keep(files, dirs []string) *Kept {
	k := &Kept{files: map[string]keptFile{}, dirs: map[string][]string{}}
	for _, f := range files {
		k.files[f] = keepFile(f)
	}
	for _, d := range dirs {
		ents, err := os.ReadDir(d)
		k.dirs[d] = []string{} // a missing directory: every entry made later is new
		if err != nil {
			continue
		}
		for _, e := range ents {
			k.dirs[d] = append(k.dirs[d], e.Name())
			if strings.HasSuffix(e.Name(), ".sample") {
				continue // git's examples, which git never runs
			}
			p := filepath.Join(d, e.Name())
			k.files[p] = keepFile(p)
		}
	}
	return k
}

func keepFile(p string) keptFile {
	info, err := os.Lstat(p)
	if err != nil {
		return keptFile{}
	}
	kf := keptFile{exists: true, mode: info.Mode(), size: info.Size(), mtime: info.ModTime().UnixNano()}
	if info.Mode().IsRegular() && info.Size() <= maxKept {
		kf.data, _ = os.ReadFile(p)
	}
	return kf
}

// Restore puts back what changed since Keep: a new file or entry is
// removed, a changed or removed file whose contents were kept is written
// back with its mode. It returns the paths that changed, sorted, each
// followed by " (not restored)" when it could not be put back.
func (k *Kept) Restore() []string {
	var changed []string
	for d, names := range k.dirs {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if slices.Contains(names, e.Name()) {
				continue
			}
			p := filepath.Join(d, e.Name())
			if err := os.RemoveAll(p); err != nil {
				changed = append(changed, p+" (not restored)")
			} else {
				changed = append(changed, p)
			}
		}
	}
	for p, was := range k.files {
		now := keepFile(p)
		if now.exists == was.exists && now.mode == was.mode && now.size == was.size && now.mtime == was.mtime {
			continue
		}
		if !was.exists {
			if err := os.RemoveAll(p); err != nil {
				changed = append(changed, p+" (not restored)")
				continue
			}
		} else if was.data == nil || !was.mode.IsRegular() || restore(p, was) != nil {
			changed = append(changed, p+" (not restored)")
			continue
		} else {
			// Restored: its new time stamp is what the next Restore compares.
			now = keepFile(p)
			now.data = was.data
			k.files[p] = now
		}
		changed = append(changed, p)
	}
	slices.Sort(changed)
	return slices.Compact(changed)
}

// restore writes was back at p, replacing whatever is there.
func restore(p string, was keptFile) error {
	if info, err := os.Lstat(p); err == nil && !info.Mode().IsRegular() {
		if err := os.RemoveAll(p); err != nil {
			return err
		}
	}
	tmp := p + ".guardsh-restore"
	if err := os.WriteFile(tmp, was.data, was.mode.Perm()); err != nil {
		return err
	}
	if err := os.Chmod(tmp, was.mode.Perm()); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, p)
}

// Changed words Restore's result for a message: the paths relative to
// dir, joined by ", ".
func Changed(paths []string, dir string) string {
	out := make([]string, len(paths))
	for i, p := range paths {
		if r, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(r, "..") {
			p = r
		}
		out[i] = p
	}
	return strings.Join(out, ", ")
}
