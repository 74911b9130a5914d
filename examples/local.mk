# examples/: task programs for users and for 'make bench'.
