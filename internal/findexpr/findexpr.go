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
