module gojsongolden

go 1.19
