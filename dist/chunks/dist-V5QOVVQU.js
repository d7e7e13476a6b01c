import{require_dist}from"./chunk-PC4SSIDH.js";import"./chunk-A2EJQX32.js";export default require_dist();
