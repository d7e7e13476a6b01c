import{createRequire}from"node:module";function readVersion(){return"0.1.0"}var CONVY_VERSION=readVersion();export{CONVY_VERSION};
