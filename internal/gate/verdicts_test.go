package gate

import (
	"reflect"
	"testing"
)

func TestFindingsRoundTrip(t *testing.T) {
	for _, fs := range [][]Finding{
		nil,
		{{Class: "leak", Path: "a.md", Line: 3, Msg: "x", Text: "a.md:3:x"}},
		{{Class: "c", Path: "p", Column: 9}, {Class: "d", Text: "whole\x00line"}},
	} {
		got, err := DecodeFindings(EncodeFindings(fs))
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) == 0 && len(got) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, fs) {
			t.Errorf("round trip %+v -> %+v", fs, got)
		}
	}
	// Truncated and trailing bytes are refused, never half-decoded.
	enc := EncodeFindings([]Finding{{Class: "leak", Path: "a.md", Msg: "long message"}})
	for _, bad := range [][]byte{enc[:len(enc)-3], append(append([]byte{}, enc...), 1), {0x7f}} {
		if _, err := DecodeFindings(bad); err == nil {
			t.Errorf("%x decoded", bad)
		}
	}
}

func FuzzDecodeFindings(f *testing.F) {
	f.Add(EncodeFindings([]Finding{{Class: "leak", Path: "a", Line: 1, Text: "a:1:x"}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		fs, err := DecodeFindings(data)
		if err == nil {
			if again, err := DecodeFindings(EncodeFindings(fs)); err != nil || len(again) != len(fs) {
				t.Fatalf("re-encode of a decoded value failed: %v", err)
			}
		}
	})
}
