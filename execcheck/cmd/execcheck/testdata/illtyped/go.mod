module example.com/illtyped

go 1.26
