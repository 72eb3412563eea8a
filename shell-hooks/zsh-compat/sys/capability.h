/*
 * zsh's zsh_system.h includes <sys/capability.h> when zsh was built with
 * libcap; the hook module calls nothing from it, so libcap's headers are
 * not a build dependency.
 */
