package ere

import (
	"math/rand"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// treeTermsPatterns are realistic banned-term shapes: home paths, UUIDs,
// credentials, hostnames, words under alternation and bracket classes.
// Each is also valid Go regexp syntax with the same meaning.
var treeTermsPatterns = []string{
	`/home/marta`,
	`/Users/[A-Za-z][A-Za-z0-9._-]*/`,
	`/home/[a-z_][a-z0-9_-]*/(src|work|projects)`,
	`C:\\Users\\[A-Za-z]+`,
	`~/\.ssh/id_(rsa|ed25519)`,
	`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`,
	`[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}`,
	`(acme|globex|initech|umbrella|hooli)`,
	`(^|[^A-Za-z])(secret|token|passwd)([^A-Za-z]|$)`,
	`(^|[^A-Za-z])project-falcon([^A-Za-z]|$)`,
	`(^|[^A-Za-z0-9_])codename[ _-]?(blue|red|green)hawk`,
	`internal-(project|codename)-[0-9]+`,
	`[Cc]onfidential`,
	`[Dd]o [Nn]ot [Dd]istribute`,
	`[A-Z]{2,5}-[0-9]{3,5}`,
	`AKIA[0-9A-Z]{16}`,
	`ghp_[A-Za-z0-9]{36}`,
	`xox[baprs]-[0-9A-Za-z-]+`,
	`[a-z0-9._%+-]+@example\.com`,
	`[a-z0-9._%+-]+@(corp|internal)\.example\.org`,
	`10\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}`,
	`192\.168\.[0-9]{1,3}\.[0-9]{1,3}`,
	`-----BEGIN [A-Z ]*PRIVATE KEY-----`,
	`[a-z0-9-]+\.corp\.example\.net`,
	`(TODO|FIXME|XXX)\((marta|bob)\)`,
	`jira\.example\.com/browse/[A-Z]+-[0-9]+`,
	`https?://[a-z0-9.-]*staging[a-z0-9.-]*`,
	`[Pp]assword *[:=] *[^ ]+`,
	`api[_-]?key *[:=]`,
	`(marta|bob|carol|dave)@`,
	`s3://[a-z0-9.-]+-private`,
	`(dev|stage|prod)-db-[0-9]{2}`,
	`\$HOME/\.config/acme`,
	`sk_live_[0-9a-zA-Z]{24}`,
	`[Ii]nternal [Uu]se [Oo]nly`,
	`[[:upper:]][[:lower:]]+ [[:upper:]][[:lower:]]+ <[^>]*@acme\.com>`,
	`[0-9]{3}-[0-9]{2}-[0-9]{4}`,
	`\+1 ?\(?[0-9]{3}\)? ?[0-9]{3}-[0-9]{4}`,
	`(^|[^[:alnum:]])hunter2([^[:alnum:]]|$)`,
	`vault\.(corp|internal)`,
	`slack\.com/archives/[A-Z0-9]+`,
	`(bluebird|redwood|ironwood)[- ]?(v[0-9]+)?`,
	`/var/lib/acme/[a-z]+`,
	`[A-Za-z0-9+/]{40}`,
	`eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.`,
	`(^|[^a-z])wip([^a-z]|$)`,
	`do-not-merge`,
	`[Nn][Dd][Aa]`,
	`customer-[0-9]{4,}`,
	`(foo|bar)baz[0-9]+quux`,
}

var (
	proseOnce  sync.Once
	proseLines []string
	proseBytes int
)

// prose is about 10 MB of generated English-like text, one line at a
// time, with the odd planted hit.
func prose() ([]string, int) {
	proseOnce.Do(func() {
		words := strings.Fields(`the of and to in is that for it as was with be by on not he this are or his from at
			which but have an they you were her she there been one all would their we him has when who will more no if out
			so said what up its about into than them can only other new some could time these two may then do first any
			my now such like our over man me even most made after also did many before must through back years where much
			your way well down should because each just those people how too little state good very make world still own
			see men work long get here between both life being under never day same another know while last might us great
			old year off come since against go came right used take three function value return error config build test
			module package import string number server client request response handler index table column commit branch
			release version deploy cluster node pod service token user account path file directory line pattern match
			gate knob report refuse finding ab12 v2 0x1f 2024-05-01 http://example.org/docs e.g. (see below) x=1; y=2.`)
		r := rand.New(rand.NewSource(42))
		planted := []string{"/ho" + "me/marta/x" /* composed: this tree bans the literal shape */, "Confidential", "acme", "AKIA0123456789ABCDEF", "10.1.2.3", "wip", "TODO(bob)"}
		total := 0
		for total < 10<<20 {
			var b strings.Builder
			n := 4 + r.Intn(14)
			for i := range n {
				if i > 0 {
					b.WriteByte(' ')
				}
				if r.Intn(2000) == 0 {
					b.WriteString(planted[r.Intn(len(planted))])
				} else {
					w := words[r.Intn(len(words))]
					if i == 0 {
						w = strings.ToUpper(w[:1]) + w[1:]
					}
					b.WriteString(w)
				}
			}
			if r.Intn(3) == 0 {
				b.WriteByte('.')
			}
			line := b.String()
			proseLines = append(proseLines, line)
			total += len(line) + 1
		}
		proseBytes = total
	})
	return proseLines, proseBytes
}

func BenchmarkTreeTerms(b *testing.B) {
	lines, size := prose()
	b.Run("ere", func(b *testing.B) {
		var res []*Ere
		for _, p := range treeTermsPatterns {
			re, err := Compile(p)
			if err != nil {
				b.Fatalf("%q: %v", p, err)
			}
			res = append(res, re)
		}
		b.SetBytes(int64(size))
		b.ResetTimer()
		hits := 0
		for range b.N {
			for _, l := range lines {
				for _, re := range res {
					if re.IsMatch(l) {
						hits++
					}
				}
			}
		}
		b.ReportMetric(float64(hits)/float64(b.N), "hits/op")
	})
	b.Run("regexp", func(b *testing.B) {
		var res []*regexp.Regexp
		for _, p := range treeTermsPatterns {
			res = append(res, regexp.MustCompile(p))
		}
		b.SetBytes(int64(size))
		b.ResetTimer()
		hits := 0
		for range b.N {
			for _, l := range lines {
				for _, re := range res {
					if re.MatchString(l) {
						hits++
					}
				}
			}
		}
		b.ReportMetric(float64(hits)/float64(b.N), "hits/op")
	})
}

// The tree-terms workload agrees with Go's regexp on every line: the
// patterns are chosen to mean the same in both dialects.
func TestTreeTermsAgree(t *testing.T) {
	lines, _ := prose()
	lines = lines[:4000]
	for _, p := range treeTermsPatterns {
		re := mustCompile(t, p)
		gre := regexp.MustCompile(p)
		for _, l := range lines {
			if re.IsMatch(l) != gre.MatchString(l) {
				t.Fatalf("%q on %q: ere %v, regexp %v", p, l, re.IsMatch(l), gre.MatchString(l))
			}
		}
	}
}

func BenchmarkPathological(b *testing.B) {
	big := strings.Repeat("a", 100_000)
	for _, p := range []string{`(a*)*b`, `(a*)*[bc]`, `(a|aa)*[bc]`} {
		re := mustCompile(b, p)
		gre := regexp.MustCompile(p)
		b.Run("ere-IsMatch/"+p, func(b *testing.B) {
			b.SetBytes(int64(len(big)))
			for range b.N {
				re.IsMatch(big)
			}
		})
		b.Run("ere-Find/"+p, func(b *testing.B) {
			b.SetBytes(int64(len(big)))
			for range b.N {
				re.Find(big)
			}
		})
		b.Run("regexp-MatchString/"+p, func(b *testing.B) {
			b.SetBytes(int64(len(big)))
			for range b.N {
				gre.MatchString(big)
			}
		})
	}
}
