module example.com/started

go 1.26
