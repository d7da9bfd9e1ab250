// Package findexpr knows the words of GNU find's expressions that the
// analysis (package interp) and the rules (package rules) both read.
package findexpr

import "strings"

// takesValue are find's tests, options and actions whose value is the
// next word (GNU findutils 4.9 find(1)).
var takesValue = map[string]bool{
	"-name": true, "-iname": true, "-path": true, "-ipath": true, "-wholename": true, "-iwholename": true,
	"-regex": true, "-iregex": true, "-lname": true, "-ilname": true, "-type": true, "-xtype": true,
	"-newer": true, "-anewer": true, "-cnewer": true, "-mtime": true, "-atime": true, "-ctime": true,
	"-mmin": true, "-amin": true, "-cmin": true, "-size": true, "-user": true, "-group": true, "-uid": true,
	"-gid": true, "-perm": true, "-maxdepth": true, "-mindepth": true, "-links": true, "-inum": true,
	"-samefile": true, "-used": true, "-fstype": true, "-context": true, "-regextype": true,
	"-fprint": true, "-fprint0": true, "-fls": true, "-printf": true,
}

// Values returns how many words after word, a word of find's
// expression, are its values: 1 for a test, option or action such as
// -name PATTERN or -newermt DATE (the -newerXY family), 2 for -fprintf
// FILE FORMAT, else 0.
func Values(word string) int {
	switch {
	case word == "-fprintf":
		return 2
	case takesValue[word], len(word) == 8 && strings.HasPrefix(word, "-newer"):
		return 1
	}
	return 0
}

// ExecEnd returns the index in words of the word that ends the command of
// an -exec, -execdir, -ok or -okdir action whose first word is at start:
// the first ";" after it, or a "+" right after a "{}" (GNU find(1): "the
// command line is built … only one instance of `{}' is allowed within the
// command, and it must appear at the end, immediately before the `+'"; a
// "+" elsewhere is one of the command's arguments). len(words) when none
// ends it.
func ExecEnd(words []string, start int) int {
	for j := start; j < len(words); j++ {
		if words[j] == ";" || words[j] == "+" && j > start && words[j-1] == "{}" {
			return j
		}
	}
	return len(words)
}
