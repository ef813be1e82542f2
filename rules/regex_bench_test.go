package rules

import (
	"regexp"
	"strconv"
	"testing"
)

// simpleBenchPatterns are the patterns BenchmarkSimplePattern times, named
// pattern=N by their index, each with strings that match and one that
// does not.
var simpleBenchPatterns = []struct {
	pattern string
	strs    []string
}{
	{`^[A-Z0-9-]{3,20}$`, []string{"SKU-100037", "AB-1001", "sku-100037"}},
	{`^[a-z]+$`, []string{"maachang", "saito", "Tanaka"}},
	{`^\d{4}-\d{2}-\d{2}$`, []string{"2024-01-31", "1999-12-01", "2024-1-31"}},
	{`^[a-z][a-z0-9_]*$`, []string{"user_name1", "x", "1abc"}},
	{`(?i)^[\w.-]{1,64}$`, []string{"Maria.Garcia-1", "ann_lee", "ann lee"}},
	{`^.{1,100}$`, []string{"Maria Garcia Lopes", "東京都千代田区", ""}},
}

// BenchmarkSimplePattern times the regex rule on simple patterns
// (impl=rule: its CheckString, which the entity package calls for a
// string field) against package regexp's MatchString of the same pattern
// on the same strings (impl=regexp).
func BenchmarkSimplePattern(b *testing.B) {
	for i, tt := range simpleBenchPatterns {
		re := regexp.MustCompile(tt.pattern)
		c := mustCompile(b, "regex", String, tt.pattern).(StringChecker)
		for _, s := range tt.strs {
			if (c.CheckString(s) == nil) != re.MatchString(s) {
				b.Fatalf("/%s/ on %q: the rule and regexp differ", tt.pattern, s)
			}
		}
		n := "/pattern=" + strconv.Itoa(i)
		b.Run("impl=regexp"+n, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, s := range tt.strs {
					_ = re.MatchString(s)
				}
			}
		})
		b.Run("impl=rule"+n, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, s := range tt.strs {
					_ = c.CheckString(s)
				}
			}
		})
	}
}
