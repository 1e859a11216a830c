// FetchBench module.
